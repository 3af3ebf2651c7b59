/**
 * The deployed console (infra/constructs/console.ts, console-sign-in.ts): a private bucket reached only through
 * CloudFront's origin access control, HTTPS only with a content security policy, a user pool that requires MFA, an
 * identity pool without unauthenticated identities whose role may invoke exactly the API's IAM-authorised routes,
 * the API's CORS for the console's origin only; `-c console=off` leaves all of it out. Bundling skipped.
 */
import type { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';

import { ROUTES } from '../../functions/manifest/index.js';
import { CONSOLE_CORS_HEADERS, INVALIDATION_ACTIONS } from '../../infra/constructs/console.js';
import { SPA_NAVIGATION_FUNCTION } from '../../infra/constructs/console-headers.js';
import { resolveConsoleDomainPrefix } from '../../infra/constructs/console-sign-in.js';
import { gatewayTemplate, nagFindingsOf } from '../support/gateway-template.js';
import { gateway, synth, useDefaultStacks } from '../support/stacks-template.js';

useDefaultStacks();

type Res = { Type: string; Properties: Record<string, unknown> };
const only = (template: Template, type: string): [string, Res] => {
  const found = Object.entries(template.findResources(type)) as [string, Res][];
  expect(found.map(([id]) => id)).toHaveLength(1);
  return found[0]!;
};
const distributionId = () => only(gateway, 'AWS::CloudFront::Distribution')[0];
/** `https://<the distribution's domain>` as the template writes it. */
const consoleOrigin = () => ({
  'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [distributionId(), 'DomainName'] }]],
});
const siteBucketId = () =>
  Object.keys(gateway.findResources('AWS::S3::Bucket')).find((id) => id.startsWith('ConsoleSite'))!;

describe('the console bucket', () => {
  it('is private, encrypted, SSL only, logged, and readable by the distribution only', () => {
    const bucket = gateway.toJSON().Resources[siteBucketId()] as Res;
    expect(bucket.Properties.PublicAccessBlockConfiguration).toEqual({
      BlockPublicAcls: true,
      BlockPublicPolicy: true,
      IgnorePublicAcls: true,
      RestrictPublicBuckets: true,
    });
    expect(JSON.stringify(bucket.Properties.BucketEncryption)).toContain('AES256');
    expect(bucket.Properties.LoggingConfiguration).toMatchObject({ LogFilePrefix: 's3/' });
    const policy = Object.values(gateway.findResources('AWS::S3::BucketPolicy')).find(
      (p) => JSON.stringify((p as Res).Properties.Bucket) === JSON.stringify({ Ref: siteBucketId() }),
    ) as Res;
    const statements = (policy.Properties.PolicyDocument as { Statement: Record<string, unknown>[] }).Statement;
    const allows = statements.filter((s) => s.Effect === 'Allow');
    expect(allows).toHaveLength(1);
    expect(allows[0]).toMatchObject({
      Action: 's3:GetObject',
      Principal: { Service: 'cloudfront.amazonaws.com' },
    });
    expect(JSON.stringify(allows[0]!.Condition)).toContain(distributionId());
    // enforceSSL: every request over plain HTTP is denied.
    expect(statements.some((s) => s.Effect === 'Deny' && JSON.stringify(s).includes('aws:SecureTransport'))).toBe(true);
  });
});

describe('the distribution', () => {
  it('redirects to HTTPS, reaches the bucket through origin access control, answers with the headers policy', () => {
    const [, distribution] = only(gateway, 'AWS::CloudFront::Distribution');
    const config = distribution.Properties.DistributionConfig as Record<string, Record<string, unknown>>;
    expect(config.DefaultRootObject).toBe('index.html');
    expect(config.DefaultCacheBehavior!.ViewerProtocolPolicy).toBe('redirect-to-https');
    expect(config.DefaultCacheBehavior!.ResponseHeadersPolicyId).toEqual({
      Ref: only(gateway, 'AWS::CloudFront::ResponseHeadersPolicy')[0],
    });
    const [origin] = config.Origins as unknown as Record<string, unknown>[];
    expect(origin!.OriginAccessControlId).toEqual({
      'Fn::GetAtt': [only(gateway, 'AWS::CloudFront::OriginAccessControl')[0], 'Id'],
    });
    expect(JSON.stringify(origin!.DomainName)).toContain(siteBucketId());
    expect(JSON.stringify(config.DefaultCacheBehavior!.FunctionAssociations)).toContain('viewer-request');
  });

  it('sends a content security policy without inline script or style, with HSTS and no framing', () => {
    const [, policy] = only(gateway, 'AWS::CloudFront::ResponseHeadersPolicy');
    const security = (policy.Properties.ResponseHeadersPolicyConfig as Record<string, Record<string, unknown>>)
      .SecurityHeadersConfig!;
    const csp = JSON.stringify((security.ContentSecurityPolicy as Record<string, unknown>).ContentSecurityPolicy);
    for (const part of [
      "default-src 'self'",
      "script-src 'self';",
      "style-src 'self';",
      "img-src 'self' data:",
      "connect-src 'self' https://*.execute-api.",
      'https://cognito-identity.',
      "frame-ancestors 'none'",
      "base-uri 'self'",
      "form-action 'self' https://gttgatewaystack-",
    ])
      expect(csp).toContain(part);
    expect(csp).not.toContain('unsafe');
    expect(security.StrictTransportSecurity).toMatchObject({ AccessControlMaxAgeSec: 63_072_000 });
    expect(security.FrameOptions).toMatchObject({ FrameOption: 'DENY' });
    expect(security.ContentTypeOptions).toMatchObject({ Override: true });
  });

  it('serves index.html for a page path and the file itself (or a 404) for a file path', () => {
    // The function's own code, run as CloudFront runs it: handler(event) -> request.
    const handler = new Function(`${SPA_NAVIGATION_FUNCTION}; return handler;`)() as (e: {
      request: { uri: string };
    }) => { uri: string };
    const served = (uri: string) => handler({ request: { uri } }).uri;
    expect(served('/')).toBe('/');
    expect(served('/orders')).toBe('/index.html');
    expect(served('/plans/p1')).toBe('/index.html');
    expect(served('/app.js')).toBe('/app.js');
    expect(served('/config.json')).toBe('/config.json');
    expect(served('/missing.png')).toBe('/missing.png');
    expect(served('/v1.2/orders')).toBe('/index.html');
  });
});

describe('the sign-in', () => {
  it('has a user pool with TOTP MFA required, no self sign-up, a strong password policy', () => {
    const [, pool] = only(gateway, 'AWS::Cognito::UserPool');
    expect(pool.Properties).toMatchObject({
      MfaConfiguration: 'ON',
      EnabledMfas: ['SOFTWARE_TOKEN_MFA'],
      AdminCreateUserConfig: { AllowAdminCreateUserOnly: true },
      UserPoolTier: 'PLUS',
      UserPoolAddOns: { AdvancedSecurityMode: 'ENFORCED' },
      Policies: {
        PasswordPolicy: {
          MinimumLength: 14,
          RequireLowercase: true,
          RequireUppercase: true,
          RequireNumbers: true,
          RequireSymbols: true,
        },
      },
    });
  });

  it('has an app client without a secret for the code flow, returning only to the console', () => {
    const [, client] = only(gateway, 'AWS::Cognito::UserPoolClient');
    const url = { 'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [distributionId(), 'DomainName'] }, '/']] };
    expect(client.Properties).toMatchObject({
      GenerateSecret: false,
      AllowedOAuthFlows: ['code'],
      AllowedOAuthScopes: ['openid', 'email'],
      CallbackURLs: [url],
      LogoutURLs: [url],
      ExplicitAuthFlows: ['ALLOW_REFRESH_TOKEN_AUTH'],
    });
  });

  it('has an identity pool without unauthenticated identities, its role for authenticated ones only', () => {
    const [poolId, pool] = only(gateway, 'AWS::Cognito::IdentityPool');
    expect(pool.Properties.AllowUnauthenticatedIdentities).toBe(false);
    expect(JSON.stringify(pool.Properties.CognitoIdentityProviders)).toContain('"ServerSideTokenCheck":true');
    const [, attachment] = only(gateway, 'AWS::Cognito::IdentityPoolRoleAttachment');
    expect(Object.keys(attachment.Properties.Roles as object)).toEqual(['authenticated']);
    const role = Object.values(gateway.findResources('AWS::IAM::Role')).find((r) =>
      JSON.stringify(r).includes('cognito-identity.amazonaws.com'),
    ) as Res;
    const trust = JSON.stringify(role.Properties.AssumeRolePolicyDocument);
    expect(trust).toContain(`"cognito-identity.amazonaws.com:aud":{"Ref":"${poolId}"}`);
    expect(trust).toContain('"cognito-identity.amazonaws.com:amr":"authenticated"');
  });

  it("lets the role invoke exactly the API's IAM-authorised routes, nothing else", () => {
    const policy = Object.entries(gateway.findResources('AWS::IAM::Policy')).find(([id]) =>
      id.startsWith('ConsoleSignInTraderRole'),
    )![1] as Res;
    const statements = (policy.Properties.PolicyDocument as { Statement: Record<string, unknown>[] }).Statement;
    expect(statements).toHaveLength(1);
    expect(statements[0]!.Action).toBe('execute-api:Invoke');
    const granted = (statements[0]!.Resource as { 'Fn::Join': [string, unknown[]] }[]).map((arn) => {
      const parts = arn['Fn::Join'][1];
      expect(parts).toContainEqual({ Ref: Object.keys(gateway.findResources('AWS::ApiGatewayV2::Api'))[0] });
      return String(parts.at(-1));
    });
    const expected = ROUTES.filter(({ route }) => route.auth === 'iam').map(
      ({ route }) => `/$default/${route.method}${route.path.replace(/\{[^}]+\}/g, '*')}`,
    );
    expect(new Set(granted)).toEqual(new Set(expected));
    expect(granted.some((r) => r.includes('oauth/callback'))).toBe(false);
    expect(granted).not.toContain('/$default/POST/signals/*');
  });
});

describe("the API's CORS", () => {
  it("allows the console's origin only, with the headers of a signed call", () => {
    const [, api] = only(gateway, 'AWS::ApiGatewayV2::Api');
    const cors = api.Properties.CorsConfiguration as Record<string, unknown>;
    expect(cors.AllowOrigins).toEqual([consoleOrigin()]);
    expect(cors.AllowHeaders).toEqual([...CONSOLE_CORS_HEADERS]);
    expect(cors.AllowCredentials).toBe(false);
    expect(cors.ExposeHeaders).toContain('etag');
  });
});

describe('the stack', () => {
  it('has no cycle: the CORS names the distribution, so neither the distribution nor its headers name the API', () => {
    // (A cycle would fail the synth itself: the CDK's template validation refuses circular dependencies.)
    const api = only(gateway, 'AWS::ApiGatewayV2::Api')[0];
    const json = (id: string) => JSON.stringify(gateway.toJSON().Resources[id]);
    expect(json(api)).toContain(distributionId());
    expect(json(distributionId())).not.toContain(api);
    expect(json(only(gateway, 'AWS::CloudFront::ResponseHeadersPolicy')[0])).not.toContain(api);
  });
});

describe('config.json and the outputs', () => {
  it("are written with the sign-in's ids, the API's URL and the console's URL", () => {
    const [, deployment] = only(gateway, 'Custom::CDKBucketDeployment');
    const markers = JSON.stringify(deployment.Properties.SourceMarkers);
    for (const id of ['ConsoleSignInUserPool', 'ConsoleSignInUserPoolWebClient', 'ConsoleSignInIdentityPool'])
      expect(markers).toContain(id);
    expect(markers).toContain('"ApiEndpoint"');
    expect(deployment.Properties.DistributionPaths).toEqual(['/*']);
    expect(deployment.Properties.SystemMetadata).toEqual({ 'cache-control': 'no-cache' });
    const outputs = gateway.toJSON().Outputs as Record<string, { Value: unknown }>;
    expect(outputs.ConsoleUrl!.Value).toEqual({
      'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [distributionId(), 'DomainName'] }, '/']],
    });
    expect(outputs.ConsoleUserPoolId!.Value).toEqual({ Ref: only(gateway, 'AWS::Cognito::UserPool')[0] });
  });
});

describe("the copier of the console's files", () => {
  it("may invalidate only the console's distribution, never every distribution ('*')", () => {
    type Doc = { Statement: { Action: string | string[]; Resource: unknown }[] };
    const invalidations = (Object.values(gateway.findResources('AWS::IAM::Policy')) as Res[])
      .flatMap((p) => (p.Properties.PolicyDocument as Doc).Statement)
      .filter((s) => [s.Action].flat().some((a) => INVALIDATION_ACTIONS.includes(a as never)));
    expect(invalidations).toHaveLength(1);
    expect([invalidations[0]!.Action].flat().sort()).toEqual([...INVALIDATION_ACTIONS].sort());
    expect(invalidations[0]!.Resource).not.toEqual('*');
    expect(JSON.stringify(invalidations[0]!.Resource)).toContain(`":distribution/",{"Ref":"${distributionId()}"}`);
  });
});

describe('settings', () => {
  it('-c console=off leaves the console, its sign-in and the CORS out', () => {
    const off = gatewayTemplate(synth({ console: 'off' }));
    for (const type of [
      'AWS::CloudFront::Distribution',
      'AWS::Cognito::UserPool',
      'AWS::Cognito::IdentityPool',
      'Custom::CDKBucketDeployment',
    ])
      expect(Object.keys(off.findResources(type))).toEqual([]);
    const api = Object.values(off.findResources('AWS::ApiGatewayV2::Api'))[0] as Res;
    expect(api.Properties.CorsConfiguration).toBeUndefined();
  }, 120_000);

  it('refuses a bad console switch or domain prefix with the setting named', () => {
    expect(() => synth({ console: 'maybe' })).toThrow(/console must be on or off/);
    expect(() => resolveConsoleDomainPrefix('My-Console')).toThrow(/consoleDomainPrefix/);
    expect(() => resolveConsoleDomainPrefix('aws-console')).toThrow(/consoleDomainPrefix/);
    expect(() => resolveConsoleDomainPrefix('-x')).toThrow(/consoleDomainPrefix/);
    expect(resolveConsoleDomainPrefix('alice-gtt')).toBe('alice-gtt');
    expect(resolveConsoleDomainPrefix(undefined)).toBeUndefined();
  });

  it('takes the domain prefix from -c consoleDomainPrefix, and cdk-nag has nothing to say', () => {
    const built = synth({ consoleDomainPrefix: 'alice-gtt' });
    const [, domain] = only(gatewayTemplate(built), 'AWS::Cognito::UserPoolDomain');
    expect(domain.Properties).toMatchObject({ Domain: 'alice-gtt', ManagedLoginVersion: 2 });
    expect(nagFindingsOf(built.gatewayStacks)).toEqual([]);
  }, 120_000);
});
