/**
 * The session functions in the stack: routes (the callback is the one without IAM), schedules in India time,
 * least privilege on the three secrets and the state table, the SessionAlive alarm, outputs, and cdk-nag.
 */
import { App } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../infra/app.js';

const synth = (context: Record<string, unknown> = {}) => buildApp(new App({ context: { 'aws:cdk:bundling-stacks': [], ...context } }));

type Statement = { Effect: string; Action: string | string[]; Resource: unknown };
type Res = { Type: string; Properties: Record<string, unknown> };
const actions = (s: Statement) => (Array.isArray(s.Action) ? s.Action : [s.Action]);

/** Role logical id -> its statements. */
const statementsByRole = (t: Template): Map<string, Statement[]> => {
  const map = new Map<string, Statement[]>();
  for (const policy of Object.values(t.findResources('AWS::IAM::Policy')) as { Properties: { PolicyDocument: { Statement: Statement[] }; Roles: { Ref: string }[] } }[]) {
    for (const role of policy.Properties.Roles) map.set(role.Ref, [...(map.get(role.Ref) ?? []), ...policy.Properties.PolicyDocument.Statement]);
  }
  return map;
};
/** Roles whose statements reach a resource whose logical id starts with `prefix`, with those actions. */
const rolesReaching = (t: Template, prefix: RegExp, action: RegExp): string[] =>
  [...statementsByRole(t)]
    .filter(([, statements]) => statements.some((s) => actions(s).some((a) => action.test(a)) && prefix.test(JSON.stringify(s.Resource))))
    .map(([role]) => role)
    .sort();

describe('session functions, TOTP renewal on, jkey auth', () => {
  let t: Template;
  let built: ReturnType<typeof synth>;
  beforeAll(() => {
    built = synth({ sessionRenewal: 'totp', brokerAuth: 'jkey', egress: 'none' });
    t = Template.fromStack(built.gateway);
  });

  it('OAuthCallback serves start (IAM) and callback (no auth); renewal and health are scheduled at 08:15 and 08:45 India time', () => {
    t.hasResourceProperties('AWS::ApiGatewayV2::Route', { RouteKey: 'GET /session/oauth/start', AuthorizationType: 'AWS_IAM' });
    t.hasResourceProperties('AWS::ApiGatewayV2::Route', { RouteKey: 'GET /session/oauth/callback', AuthorizationType: 'NONE' });
    const schedules = Object.values(t.findResources('AWS::Scheduler::Schedule')) as Res[];
    expect(schedules.map((s) => [s.Properties.ScheduleExpression, s.Properties.ScheduleExpressionTimezone]).sort()).toEqual([
      ['cron(15 8 ? * MON-FRI *)', 'Asia/Kolkata'],
      ['cron(45 8 ? * MON-FRI *)', 'Asia/Kolkata'],
    ]);
    for (const s of schedules) {
      const arn = JSON.stringify((s.Properties.Target as { Arn: unknown }).Arn);
      expect(arn).toMatch(/SessionSession(Renewal|Health)Function/);
    }
  });

  it('each secret is readable only by its function; only OAuth and renewal may write the session; the state table only for OAuth', () => {
    expect(rolesReaching(t, /SessionOAuthApp/, /^secretsmanager:GetSecretValue$/)).toEqual([expect.stringMatching(/^SessionOAuthCallbackRole/)]);
    expect(rolesReaching(t, /SessionLogin/, /^secretsmanager:GetSecretValue$/)).toEqual([expect.stringMatching(/^SessionSessionRenewalRole/)]);
    expect(rolesReaching(t, /BrokerSession/, /^secretsmanager:PutSecretValue$/)).toEqual([
      expect.stringMatching(/^SessionOAuthCallbackRole/),
      expect.stringMatching(/^SessionSessionRenewalRole/),
    ]);
    expect(rolesReaching(t, /SessionOAuthStateTable/, /^dynamodb:/)).toEqual([expect.stringMatching(/^SessionOAuthCallbackRole/)]);
    const scheduler = [...statementsByRole(t)].filter(([role]) => /SchedulerRole/.test(role));
    expect(scheduler).toHaveLength(2);
    for (const [, statements] of scheduler) expect(statements.flatMap(actions)).toEqual(['lambda:InvokeFunction']);
  });

  it('BROKER_AUTH=jkey reaches every function; the OAuth function knows the authorize URL and its state table', () => {
    for (const fn of Object.values(t.findResources('AWS::Lambda::Function')) as Res[]) {
      expect((fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables.BROKER_AUTH).toBe('jkey');
    }
    t.hasResourceProperties('AWS::Lambda::Function', {
      Environment: { Variables: Match.objectLike({ BROKER_AUTHORIZE_URL: { Ref: 'BrokerAuthorizeUrl' }, OAUTH_STATE_TABLE_NAME: Match.anyValue() }) },
    });
    t.hasResourceProperties('AWS::DynamoDB::Table', { KeySchema: [{ AttributeName: 'state', KeyType: 'HASH' }], TimeToLiveSpecification: { AttributeName: 'expiresAt', Enabled: true } });
  });

  it('alarms when SessionAlive drops below 1, and gives the going-live outputs', () => {
    t.hasResourceProperties('AWS::CloudWatch::Alarm', {
      MetricName: 'SessionAlive',
      Namespace: 'GttGateway',
      ComparisonOperator: 'LessThanThreshold',
      Threshold: 1,
      Dimensions: [{ Name: 'service', Value: 'gtt-gateway' }],
    });
    const outputs = Object.keys(t.toJSON().Outputs as object);
    expect(outputs).toEqual(expect.arrayContaining(['OAuthStartUrl', 'OAuthCallbackUrl', 'OAuthAppSecretArn', 'LoginSecretArn']));
  });

  it('cdk-nag: no unsuppressed finding', () => {
    const annotations = Annotations.fromStack(built.gateway);
    const findings = [...annotations.findError('*', Match.stringLikeRegexp('AwsSolutions-.*')), ...annotations.findWarning('*', Match.stringLikeRegexp('AwsSolutions-.*'))];
    expect(findings.map((f) => f.id)).toEqual([]);
  });

  it('an unknown brokerAuth fails the synth with a clear message', () => {
    expect(() => synth({ brokerAuth: 'cookie', egress: 'none' })).toThrow(/brokerAuth must be bearer or jkey/);
  });
});
