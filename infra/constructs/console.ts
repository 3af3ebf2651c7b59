/**
 * The deployed trader's console (docs/reference/console.md#deployed): the page's files in a private S3 bucket behind a
 * CloudFront distribution (origin access control, HTTPS only, security headers with a content security policy,
 * single-page navigation to index.html), `config.json` beside them with the sign-in's ids, the sign-in itself
 * (console-sign-in.ts: user pool, managed login, identity pool), the API's CORS for the console's origin only, and
 * the stack outputs (the console's URL, the user pool's id for `npm run gtt -- console-user add`).
 *
 * No cycle: the API's CORS names the distribution's domain, so the distribution must not name the API; its content
 * security policy allows every HTTP API of the region (`https://*.execute-api.<region>.amazonaws.com`), and the page
 * learns the API's own URL from config.json, written after both exist.
 */
import { CfnOutput, DockerImage, Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import type { CfnApi, HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import { S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as s3deploy from 'aws-cdk-lib/aws-s3-deployment';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';

import { buildConsoleSync } from '../../console/build.js';
import type { ConsoleConfig } from '../../console/src/config.js';
import type { Route } from '../../functions/manifest/index.js';
import { consoleContentSecurityPolicy, SPA_NAVIGATION_FUNCTION } from './console-headers.js';
import { ConsoleSignIn, resolveConsoleDomainPrefix } from './console-sign-in.js';

/** `-c console=on|off`: the console is deployed unless `off` (docs/reference/console.md#deployed). */
export const CONSOLE_CONTEXT_KEY = 'console';

/** `on` (the default) or `off`; anything else fails the synth. */
export const resolveConsoleEnabled = (value: unknown): boolean => {
  if (value === undefined || value === null || value === 'on' || value === true) return true;
  if (value === 'off' || value === false) return false;
  throw new Error(`console must be on or off (default on); got ${JSON.stringify(value)}`);
};

/** The headers a signed call from the page carries (SigV4's and the API's own) and the answer's it reads. */
export const CONSOLE_CORS_HEADERS = [
  'authorization',
  'content-type',
  'x-amz-date',
  'x-amz-security-token',
  'x-amz-content-sha256',
  'if-match',
  'idempotency-key',
] as const;
export const CONSOLE_EXPOSED_HEADERS = ['etag', 'retry-after'] as const;

/** Where the page's files come from: built by the console's esbuild at synth (never Docker). */
const CONSOLE_DIR = new URL('../../console', import.meta.url).pathname;

export interface ConsoleSiteProps {
  /** Default `<stack name>-<account>`, lowercased (unique per account and region). */
  domainPrefix?: string;
}

/**
 * The console's site: its buckets and its CloudFront distribution. In the gateway stack beside the API, whose CORS
 * names the distribution's domain (the API comes before the stacks that name it: the sign-in, config.json).
 */
export class ConsoleSite extends Construct {
  readonly bucket: s3.Bucket;
  readonly logBucket: s3.Bucket;
  readonly distribution: cloudfront.Distribution;
  /** `https://<distribution domain>`: the API's only CORS origin. */
  readonly origin: string;
  /** The sign-in's managed login domain prefix, and its origin (in the content security policy). */
  readonly domainPrefix: string;
  readonly authOrigin: string;

  constructor(scope: Construct, id: string, props: ConsoleSiteProps = {}) {
    super(scope, id);
    const stack = Stack.of(this);
    const region = stack.region;
    const domainPrefix =
      resolveConsoleDomainPrefix(props.domainPrefix) ?? `${stack.stackName.toLowerCase()}-${stack.account}`;
    this.domainPrefix = domainPrefix;

    // CloudFront's standard logs need ACLs on their bucket (object writer); the site bucket's access logs go here too.
    this.logBucket = new s3.Bucket(this, 'Logs', {
      encryption: s3.BucketEncryption.S3_MANAGED,
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      objectOwnership: s3.ObjectOwnership.OBJECT_WRITER,
      lifecycleRules: [{ id: 'expire', expiration: Duration.days(90) }],
      removalPolicy: RemovalPolicy.DESTROY,
      autoDeleteObjects: false,
    });
    this.bucket = new s3.Bucket(this, 'Site', {
      encryption: s3.BucketEncryption.S3_MANAGED,
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      serverAccessLogsBucket: this.logBucket,
      serverAccessLogsPrefix: 's3/',
      removalPolicy: RemovalPolicy.DESTROY,
    });

    const authOrigin = `https://${domainPrefix}.auth.${region}.amazoncognito.com`;
    this.authOrigin = authOrigin;
    const headers = new cloudfront.ResponseHeadersPolicy(this, 'Headers', {
      comment: 'gtt-gateway console: security headers and content security policy',
      securityHeadersBehavior: {
        contentSecurityPolicy: {
          contentSecurityPolicy: consoleContentSecurityPolicy({
            api: `https://*.execute-api.${region}.amazonaws.com`,
            identity: `https://cognito-identity.${region}.amazonaws.com`,
            auth: authOrigin,
          }),
          override: true,
        },
        strictTransportSecurity: {
          accessControlMaxAge: Duration.days(730),
          includeSubdomains: true,
          override: true,
        },
        contentTypeOptions: { override: true },
        frameOptions: { frameOption: cloudfront.HeadersFrameOption.DENY, override: true },
        // The sign-in's code is in the URL when the page loads: no page it links to learns it.
        referrerPolicy: { referrerPolicy: cloudfront.HeadersReferrerPolicy.NO_REFERRER, override: true },
      },
      customHeadersBehavior: {
        customHeaders: [
          { header: 'Cross-Origin-Opener-Policy', value: 'same-origin', override: true },
          {
            header: 'Permissions-Policy',
            value: 'camera=(), microphone=(), geolocation=(), payment=(), usb=()',
            override: true,
          },
        ],
      },
    });
    const navigation = new cloudfront.Function(this, 'Navigation', {
      comment: 'gtt-gateway console: a page path (no file extension) is served index.html',
      code: cloudfront.FunctionCode.fromInline(SPA_NAVIGATION_FUNCTION),
      runtime: cloudfront.FunctionRuntime.JS_2_0,
    });
    this.distribution = new cloudfront.Distribution(this, 'Distribution', {
      comment: 'gtt-gateway trader console',
      defaultRootObject: 'index.html',
      // North America, Europe, Asia (India's edges included), Middle East, Africa.
      priceClass: cloudfront.PriceClass.PRICE_CLASS_200,
      httpVersion: cloudfront.HttpVersion.HTTP2_AND_3,
      enableLogging: true,
      logBucket: this.logBucket,
      logFilePrefix: 'cloudfront/',
      defaultBehavior: {
        origin: S3BucketOrigin.withOriginAccessControl(this.bucket),
        viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        allowedMethods: cloudfront.AllowedMethods.ALLOW_GET_HEAD,
        cachePolicy: cloudfront.CachePolicy.CACHING_OPTIMIZED,
        responseHeadersPolicy: headers,
        compress: true,
        functionAssociations: [{ function: navigation, eventType: cloudfront.FunctionEventType.VIEWER_REQUEST }],
      },
    });
    this.origin = `https://${this.distribution.distributionDomainName}`;
    suppressSiteNagFindings(this);
  }
}

export interface TraderConsoleProps {
  site: ConsoleSite;
  api: HttpApi;
  stageName: string;
  routes: readonly Route[];
}

/**
 * The rest of the console, in its own stack after the API's: the sign-in (console-sign-in.ts), `config.json` with
 * the files copied into the site's bucket, and the outputs.
 */
export class TraderConsole extends Construct {
  readonly site: ConsoleSite;
  readonly signIn: ConsoleSignIn;

  constructor(scope: Construct, id: string, props: TraderConsoleProps) {
    super(scope, id);
    const stack = Stack.of(this);
    const { site } = props;
    this.site = site;
    const region = stack.region;
    const consoleUrl = `${site.origin}/`;
    const domainPrefix = site.domainPrefix;
    const authOrigin = site.authOrigin;

    this.signIn = new ConsoleSignIn(this, 'SignIn', {
      api: props.api,
      stageName: props.stageName,
      routes: props.routes,
      consoleUrl,
      domainPrefix,
    });

    const config: ConsoleConfig = {
      mode: 'cognito',
      region,
      apiUrl: props.api.apiEndpoint,
      userPoolId: this.signIn.userPool.userPoolId,
      userPoolClientId: this.signIn.client.userPoolClientId,
      identityPoolId: this.signIn.identityPool.ref,
      authUrl: authOrigin,
      redirectUri: consoleUrl,
    };
    const deployment = new s3deploy.BucketDeployment(this, 'Files', {
      destinationBucket: site.bucket,
      sources: [
        s3deploy.Source.asset(CONSOLE_DIR, {
          bundling: {
            // Never Docker: the console's own esbuild builds the files at synth.
            image: DockerImage.fromRegistry('none'),
            local: {
              tryBundle: (outputDir: string) => {
                buildConsoleSync(outputDir);
                return true;
              },
            },
          },
        }),
        s3deploy.Source.jsonData('config.json', config),
      ],
      // Browsers and CloudFront ask again each time (a 304 when unchanged): a deploy is seen at the next load.
      cacheControl: [s3deploy.CacheControl.noCache()],
      distribution: site.distribution,
      distributionPaths: ['/*'],
      prune: true,
      memoryLimit: 256,
      // Its role narrows the CDK's invalidation grant on `*` to this distribution (CopierRole, below).
      role: new CopierRole(this, 'FilesRole', site.distribution),
      // The CDK's copying function logs where the stack's functions do: a month.
      logGroup: new logs.LogGroup(this, 'FilesLogs', {
        retention: logs.RetentionDays.ONE_MONTH,
        removalPolicy: RemovalPolicy.DESTROY,
      }),
    });

    new CfnOutput(stack, 'ConsoleUrl', { value: consoleUrl, description: "The trader's console (sign in there)" });
    new CfnOutput(stack, 'ConsoleUserPoolId', {
      value: this.signIn.userPool.userPoolId,
      description: "The console's users: npm run gtt -- console-user add <email> --user-pool-id <this>",
    });
    suppressConsoleNagFindings(this, deployment);
  }
}

/** The API's CORS: the console's origin only, the methods of its routes, the headers of a signed call. */
export const allowConsoleOrigin = (api: HttpApi, origin: string, routes: readonly Route[]): void => {
  (api.node.defaultChild as CfnApi).corsConfiguration = {
    allowOrigins: [origin],
    allowMethods: [...new Set(routes.map((route) => route.method))].sort(),
    allowHeaders: [...CONSOLE_CORS_HEADERS],
    exposeHeaders: [...CONSOLE_EXPOSED_HEADERS],
    allowCredentials: false,
    maxAge: 600,
  };
};

/** The CloudFront actions the CDK's BucketDeployment grants on `*` to invalidate the distribution it is given. */
export const INVALIDATION_ACTIONS = ['cloudfront:CreateInvalidation', 'cloudfront:GetInvalidation'] as const;

/**
 * The role of the CDK's copier of the console's files. The BucketDeployment grants its handler CloudFront's
 * invalidation actions on `*` (aws-s3-deployment adds that statement itself, with no option to narrow it); both
 * actions take a distribution ARN, so this role takes that statement with the console's distribution as its resource
 * instead: the copier can invalidate no other distribution of the account. Everything else it is granted (the two
 * buckets' objects) is added unchanged, and it has the basic execution policy the CDK's own role would have.
 */
export class CopierRole extends iam.Role {
  /** How many invalidation statements on `*` were narrowed (the synth fails if none was: see the validation). */
  private narrowed = 0;

  constructor(scope: Construct, id: string, distribution: cloudfront.IDistribution) {
    super(scope, id, {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: "gtt-gateway: the CDK's copier of the console's files (its bucket, its distribution's invalidation)",
      managedPolicies: [iam.ManagedPolicy.fromAwsManagedPolicyName('service-role/AWSLambdaBasicExecutionRole')],
    });
    this.distributionArn = Stack.of(distribution).formatArn({
      service: 'cloudfront',
      region: '',
      resource: 'distribution',
      resourceName: distribution.distributionId,
    });
    // A future aws-cdk-lib that grants otherwise must not leave the grant on `*` silently, nor drop it.
    this.node.addValidation({
      validate: () => (this.narrowed > 0 ? [] : ["the CDK's CloudFront invalidation grant was not seen to narrow"]),
    });
  }

  private readonly distributionArn: string;

  override addToPrincipalPolicy(statement: iam.PolicyStatement): iam.AddToPrincipalPolicyResult {
    const invalidation = statement.actions.some((a) => (INVALIDATION_ACTIONS as readonly string[]).includes(a));
    if (!invalidation || !statement.resources.includes('*')) return super.addToPrincipalPolicy(statement);
    this.narrowed++;
    const narrowed = statement.copy({ resources: [this.distributionArn] });
    return super.addToPrincipalPolicy(narrowed);
  }
}

const suppressSiteNagFindings = (console: ConsoleSite): void => {
  NagSuppressions.addResourceSuppressions(console.logBucket, [
    {
      id: 'AwsSolutions-S1',
      reason:
        "The console's log bucket itself (CloudFront's and the site bucket's access logs): logging it again would need a bucket for its logs in turn.",
    },
  ]);
  NagSuppressions.addResourceSuppressions(console.distribution, [
    {
      id: 'AwsSolutions-CFR1',
      reason:
        'The console serves static files only, and every call it makes is SigV4-signed with a signed-in trader’s credentials (MFA required); a trader travelling abroad must still reach it.',
    },
    {
      id: 'AwsSolutions-CFR2',
      reason:
        'Static files only (no form, no server code behind CloudFront); a web ACL costs at least $5 a month for no protection the signed API and Cognito’s threat protection do not give. Add one with a custom domain if wanted.',
    },
    {
      id: 'AwsSolutions-CFR4',
      reason:
        'The distribution’s own *.cloudfront.net name with CloudFront’s default certificate (no custom domain to certify); viewers are redirected to HTTPS.',
    },
  ]);
};

const suppressConsoleNagFindings = (console: TraderConsole, deployment: s3deploy.BucketDeployment): void => {
  // The CDK's BucketDeployment: its handler (a singleton function of the stack) and its role.
  NagSuppressions.addResourceSuppressions(
    deployment.handlerRole,
    [
      {
        id: 'AwsSolutions-IAM4',
        reason: "The CDK's BucketDeployment handler writes only its logs with AWSLambdaBasicExecutionRole.",
        appliesTo: ['Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole'],
      },
      {
        id: 'AwsSolutions-IAM5',
        reason:
          "The CDK's BucketDeployment copies the console's files from the CDK assets bucket to the console's bucket: the objects of those two buckets (its invalidation grant is narrowed to the console's distribution: CopierRole).",
      },
    ],
    true,
  );
  const stack = Stack.of(console);
  for (const child of stack.node.children) {
    if (child.node.id.startsWith('Custom::CDKBucketDeployment')) {
      NagSuppressions.addResourceSuppressions(child, [
        {
          id: 'AwsSolutions-L1',
          reason: "The CDK's BucketDeployment handler: its runtime is the one the CDK ships it with.",
        },
      ]);
    }
  }
};
