/**
 * The deployed console's sign-in (docs/reference/console.md#deployed): a Cognito user pool (no self sign-up, MFA required by
 * TOTP, a strong password policy, threat protection enforced on the Plus plan), its managed login on a Cognito
 * domain, an app client for the code flow with PKCE (no secret) that returns only to the console's URL, and an
 * identity pool (authenticated identities only) whose role may call exactly the API's IAM-authorised routes.
 */
import { Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import * as cognito from 'aws-cdk-lib/aws-cognito';
import * as iam from 'aws-cdk-lib/aws-iam';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';

import type { Route } from '../../functions/manifest/index.js';

/** `-c consoleDomainPrefix=...`: the Cognito domain's prefix (`<prefix>.auth.<region>.amazoncognito.com`). */
export const CONSOLE_DOMAIN_PREFIX_CONTEXT_KEY = 'consoleDomainPrefix';
const DOMAIN_PREFIX = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
/** Cognito refuses a prefix with any of these words. */
const RESERVED_WORDS = ['aws', 'amazon', 'cognito'];

/** Checks a domain prefix; undefined gives the default (the stack's name and account, unique per account). */
export const resolveConsoleDomainPrefix = (value: unknown): string | undefined => {
  if (value === undefined || value === null) return undefined;
  const prefix = String(value);
  if (!DOMAIN_PREFIX.test(prefix) || RESERVED_WORDS.some((word) => prefix.includes(word))) {
    throw new Error(
      `consoleDomainPrefix must be 1 to 63 lowercase letters, digits and hyphens (not at either end) without "aws", "amazon" or "cognito"; got ${JSON.stringify(prefix)}`,
    );
  }
  return prefix;
};

/** `/gtt-orders/{alId}` -> `/gtt-orders/*`: the execute-api resource of every value of the path's parameters. */
export const routeResourcePath = (path: string): string => path.replace(/\{[^}/]+\}/g, '*');

/** The routes the console's role may call: every IAM-authorised route (not the OAuth callback nor the webhook). */
export const consoleRoutes = (routes: readonly Route[]): Route[] => routes.filter((route) => route.auth === 'iam');

export interface ConsoleSignInProps {
  api: HttpApi;
  /** The stage's name (`$default`), part of each route's execute-api ARN. */
  stageName: string;
  /** Every route of the stack's functions; the IAM-authorised ones are granted. */
  routes: readonly Route[];
  /** The console's URL (`https://<distribution>/`): the only callback and sign-out URL of the app client. */
  consoleUrl: string;
  domainPrefix: string;
}

export class ConsoleSignIn extends Construct {
  readonly userPool: cognito.UserPool;
  readonly client: cognito.UserPoolClient;
  readonly domain: cognito.UserPoolDomain;
  readonly identityPool: cognito.CfnIdentityPool;
  /** The role a signed-in trader's browser assumes: `execute-api:Invoke` on the API's routes, nothing else. */
  readonly traderRole: iam.Role;

  constructor(scope: Construct, id: string, props: ConsoleSignInProps) {
    super(scope, id);
    const stack = Stack.of(this);
    this.userPool = new cognito.UserPool(this, 'UserPool', {
      userPoolName: `${stack.stackName}-console`,
      // Users are made by `npm run gtt -- console-user add <email>` (AdminCreateUser) only.
      selfSignUpEnabled: false,
      signInAliases: { email: true },
      autoVerify: { email: true },
      mfa: cognito.Mfa.REQUIRED,
      mfaSecondFactor: { otp: true, sms: false },
      passwordPolicy: {
        minLength: 14,
        requireLowercase: true,
        requireUppercase: true,
        requireDigits: true,
        requireSymbols: true,
        tempPasswordValidity: Duration.days(3),
      },
      accountRecovery: cognito.AccountRecovery.EMAIL_ONLY,
      // Threat protection (compromised credentials, adaptive authentication) needs the Plus plan: a few cents a
      // month for one trader (docs/reference/deploying.md#cost).
      featurePlan: cognito.FeaturePlan.PLUS,
      standardThreatProtectionMode: cognito.StandardThreatProtectionMode.FULL_FUNCTION,
      userInvitation: {
        emailSubject: 'Your gtt-gateway console account',
        emailBody: `Your gtt-gateway console user is {username} with the temporary password {####} (valid 3 days). Open ${props.consoleUrl} to sign in: you set a new password and an authenticator app (TOTP) the first time.`,
      },
      // Users are added again in a minute; a kept pool would also keep its domain prefix and fail the next deploy.
      removalPolicy: RemovalPolicy.DESTROY,
    });
    this.client = this.userPool.addClient('WebClient', {
      userPoolClientName: 'console',
      generateSecret: false,
      // The managed login only: no password flow from the page itself.
      authFlows: { user: false, userSrp: false, userPassword: false, adminUserPassword: false, custom: false },
      oAuth: {
        flows: { authorizationCodeGrant: true, implicitCodeGrant: false },
        scopes: [cognito.OAuthScope.OPENID, cognito.OAuthScope.EMAIL],
        callbackUrls: [props.consoleUrl],
        logoutUrls: [props.consoleUrl],
      },
      supportedIdentityProviders: [cognito.UserPoolClientIdentityProvider.COGNITO],
      preventUserExistenceErrors: true,
      enableTokenRevocation: true,
      // A trading day: the page renews its tokens each hour and signs in again the next morning.
      idTokenValidity: Duration.hours(1),
      accessTokenValidity: Duration.hours(1),
      refreshTokenValidity: Duration.hours(12),
    });
    this.domain = this.userPool.addDomain('Domain', {
      cognitoDomain: { domainPrefix: props.domainPrefix },
      managedLoginVersion: cognito.ManagedLoginVersion.NEWER_MANAGED_LOGIN,
    });
    // The managed login's look: Cognito's own.
    new cognito.CfnManagedLoginBranding(this, 'Branding', {
      userPoolId: this.userPool.userPoolId,
      clientId: this.client.userPoolClientId,
      useCognitoProvidedValues: true,
    });

    this.identityPool = new cognito.CfnIdentityPool(this, 'IdentityPool', {
      identityPoolName: `${stack.stackName}-console`.replace(/[^\w]/g, '_'),
      allowUnauthenticatedIdentities: false,
      allowClassicFlow: false,
      cognitoIdentityProviders: [
        {
          clientId: this.client.userPoolClientId,
          providerName: this.userPool.userPoolProviderName,
          // Signed-out and revoked tokens are refused.
          serverSideTokenCheck: true,
        },
      ],
    });
    this.traderRole = new iam.Role(this, 'TraderRole', {
      description: "gtt-gateway console: a signed-in trader's browser calls the API's routes (execute-api:Invoke only)",
      assumedBy: new iam.FederatedPrincipal(
        'cognito-identity.amazonaws.com',
        {
          StringEquals: { 'cognito-identity.amazonaws.com:aud': this.identityPool.ref },
          'ForAnyValue:StringLike': { 'cognito-identity.amazonaws.com:amr': 'authenticated' },
        },
        'sts:AssumeRoleWithWebIdentity',
      ),
      maxSessionDuration: Duration.hours(1),
    });
    const granted = consoleRoutes(props.routes);
    this.traderRole.addToPolicy(
      new iam.PolicyStatement({
        actions: ['execute-api:Invoke'],
        resources: [
          ...new Set(
            granted.map((route) =>
              props.api.arnForExecuteApi(route.method, routeResourcePath(route.path), props.stageName),
            ),
          ),
        ],
      }),
    );
    new cognito.CfnIdentityPoolRoleAttachment(this, 'Roles', {
      identityPoolId: this.identityPool.ref,
      roles: { authenticated: this.traderRole.roleArn },
    });
    NagSuppressions.addResourceSuppressions(
      this.traderRole,
      [
        {
          id: 'AwsSolutions-IAM5',
          reason:
            "Each route with a path parameter (`/gtt-orders/{alId}`) as its execute-api resource: the parameter's every value is `*`. Only the API's IAM-authorised routes are listed, by method, on its one stage.",
          appliesTo: [{ regex: '/^Resource::arn:.*:execute-api:.*\\*.*$/g' }],
        },
      ],
      true,
    );
  }
}
