/**
 * The session functions in the stack: routes (the callback is the one without IAM), schedules in India time,
 * least privilege on the three secrets and the state table, the SessionAlive alarm, outputs, and cdk-nag per egress
 * setting with and without the TOTP renewal.
 */
import { App } from 'aws-cdk-lib';
import type { Template } from 'aws-cdk-lib/assertions';
import { Match } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';

import { SESSION_FUNCTIONS } from '../../functions/session/definitions.js';
import { buildApp } from '../../infra/stacks/app.js';
import { gatewayTemplate, nagFindingsOf, type WithGatewayStacks } from '../support/gateway-template.js';
import { gatewayFunctionsOf } from '../support/stacks-template.js';

// The watcher (events-default.test.ts) is left out: these tests count the session functions' schedules and roles,
// beside the signal worker's sweep schedule, which every deployment has (manifest.test.ts).
// The end-of-day logout is left out where functions are counted; test/infra/end-of-day.test.ts covers it.
const synth = (context: Record<string, unknown> = {}) =>
  buildApp(new App({ context: { 'aws:cdk:bundling-stacks': [], watcher: 'off', endOfDayLogout: 'off', ...context } }));

type Statement = { Effect: string; Action: string | string[]; Resource: unknown };
type Res = { Type: string; Properties: Record<string, unknown> };
const actions = (s: Statement) => (Array.isArray(s.Action) ? s.Action : [s.Action]);
const nagFindings = (built: WithGatewayStacks) => nagFindingsOf(built.gatewayStacks);

/** Role logical id -> its statements. */
const statementsByRole = (t: Template): Map<string, Statement[]> => {
  const map = new Map<string, Statement[]>();
  for (const policy of Object.values(t.findResources('AWS::IAM::Policy')) as {
    Properties: { PolicyDocument: { Statement: Statement[] }; Roles: { Ref: string }[] };
  }[]) {
    for (const role of policy.Properties.Roles)
      map.set(role.Ref, [...(map.get(role.Ref) ?? []), ...policy.Properties.PolicyDocument.Statement]);
  }
  return map;
};
/** Roles whose statements reach a resource whose logical id starts with `prefix`, with those actions. */
const rolesReaching = (t: Template, prefix: RegExp, action: RegExp): string[] =>
  [...statementsByRole(t)]
    .filter(([, statements]) =>
      statements.some((s) => actions(s).some((a) => action.test(a)) && prefix.test(JSON.stringify(s.Resource))),
    )
    .map(([role]) => role)
    .sort();

/** Every function but the EventForwarder and the events history, which never call the broker. */
/** The functions that call the broker: every one the deployment gives the broker's address. */
const brokerCallers = (t: Template): Res[] => {
  const callers = Object.values(t.findResources('AWS::Lambda::Function'))
    .map((fn) => fn as Res)
    .filter((fn) => {
      const variables = (fn.Properties.Environment as { Variables?: Record<string, unknown> } | undefined)?.Variables;
      return variables !== undefined && 'BROKER_BASE_URL' in variables;
    });
  // The order functions, plans, the watcher, the session functions and the signal worker at least.
  expect(callers.length).toBeGreaterThanOrEqual(15);
  return callers;
};

describe('session functions, TOTP renewal on, jkey auth', () => {
  let t: Template;
  let built: ReturnType<typeof synth>;
  beforeAll(() => {
    built = synth({ sessionRenewal: 'totp', brokerAuth: 'jkey', egress: 'none' });
    t = gatewayTemplate(built);
  });

  it('OAuthCallback serves start (IAM) and callback (no auth); renewal and health are scheduled at 08:15 and 08:45 India time', () => {
    t.hasResourceProperties('AWS::ApiGatewayV2::Route', {
      RouteKey: 'GET /session/oauth/start',
      AuthorizationType: 'AWS_IAM',
    });
    t.hasResourceProperties('AWS::ApiGatewayV2::Route', {
      RouteKey: 'GET /session/oauth/callback',
      AuthorizationType: 'NONE',
    });
    const schedules = (Object.values(t.findResources('AWS::Scheduler::Schedule')) as Res[]).filter((s) =>
      JSON.stringify(s.Properties.Target).includes('Session'),
    );
    // Each cron of the table goes to its own function, in India time, exactly on time, with a few quick retries.
    const byFunction = Object.fromEntries(
      schedules.map((s) => {
        const target = s.Properties.Target as { Arn: { 'Fn::GetAtt': [string, string] }; RetryPolicy: unknown };
        return [
          target.Arn['Fn::GetAtt'][0].replace(/Function[0-9A-F]{8}$/, ''),
          [
            s.Properties.ScheduleExpression,
            s.Properties.ScheduleExpressionTimezone,
            s.Properties.FlexibleTimeWindow,
            target.RetryPolicy,
          ],
        ];
      }),
    );
    const expected = (name: string) => {
      const spec = SESSION_FUNCTIONS.find((f) => f.name === name)!;
      return [
        spec.trigger?.kind === 'schedule' ? spec.trigger.cron : undefined,
        'Asia/Kolkata',
        { Mode: 'OFF' },
        { MaximumRetryAttempts: 2, MaximumEventAgeInSeconds: 600 },
      ];
    };
    expect(byFunction).toEqual({
      SessionSessionRenewal: expected('SessionRenewal'),
      SessionSessionHealth: expected('SessionHealth'),
    });
    expect(byFunction.SessionSessionRenewal![0]).toBe('cron(15 8 ? * MON-FRI *)');
    expect(byFunction.SessionSessionHealth![0]).toBe('cron(45 8 ? * MON-FRI *)');
  });

  it("each schedule's role may invoke only the function of its schedule (its unqualified ARN)", () => {
    const schedules = Object.values(t.findResources('AWS::Scheduler::Schedule')) as Res[];
    // The renewal's, the health check's, the signal worker's sweep and the instrument refresh's.
    expect(schedules).toHaveLength(4);
    const policies = statementsByRole(t);
    for (const s of schedules) {
      const target = s.Properties.Target as { Arn: unknown; RoleArn: { 'Fn::GetAtt': [string, string] } };
      expect(policies.get(target.RoleArn['Fn::GetAtt'][0])).toEqual([
        { Effect: 'Allow', Action: 'lambda:InvokeFunction', Resource: target.Arn },
      ]);
    }
  });

  it('each secret is readable only by its function; only OAuth, renewal and Logout may write the session; the state table only for OAuth', () => {
    expect(rolesReaching(t, /SessionOAuthApp/, /^secretsmanager:GetSecretValue$/)).toEqual([
      expect.stringMatching(/^SessionOAuthCallbackRole/),
    ]);
    expect(rolesReaching(t, /SessionLogin/, /^secretsmanager:GetSecretValue$/)).toEqual([
      expect.stringMatching(/^SessionSessionRenewalRole/),
    ]);
    expect(rolesReaching(t, /SessionOAuthApp|SessionLogin/, /./)).toEqual([
      expect.stringMatching(/^SessionOAuthCallbackRole/),
      expect.stringMatching(/^SessionSessionRenewalRole/),
    ]);
    // Any write on the session secret: PutSecretValue, and only that, for the two login functions and Logout (which
    // marks the secret logged out).
    expect(rolesReaching(t, /BrokerSession/, /^secretsmanager:(?!GetSecretValue$|DescribeSecret$)/).sort()).toEqual([
      expect.stringMatching(/^LogoutRole/),
      expect.stringMatching(/^SessionOAuthCallbackRole/),
      expect.stringMatching(/^SessionSessionRenewalRole/),
    ]);
    for (const [role, statements] of statementsByRole(t)) {
      const writes = statements.filter((st) =>
        actions(st).some((a) => /^secretsmanager:(?!GetSecretValue$|DescribeSecret$)/.test(a)),
      );
      if (writes.length > 0) expect([role, writes.flatMap(actions)]).toEqual([role, ['secretsmanager:PutSecretValue']]);
    }
    expect(rolesReaching(t, /SessionOAuthStateTable/, /^dynamodb:/)).toEqual([
      expect.stringMatching(/^SessionOAuthCallbackRole/),
    ]);
    const stateStatements = statementsByRole(t)
      .get(rolesReaching(t, /SessionOAuthStateTable/, /^dynamodb:/)[0]!)!
      .filter((st) => /SessionOAuthStateTable/.test(JSON.stringify(st.Resource)));
    // A state, the pending login, a code's claim put; a code-only callback's attempts (the live brokers' redirect)
    // counted by UpdateItem; a state or the pending login consumed (functions/session/oauth-state.ts).
    expect(stateStatements.flatMap(actions).sort()).toEqual([
      'dynamodb:DeleteItem',
      'dynamodb:PutItem',
      'dynamodb:UpdateItem',
    ]);
    const scheduler = [...statementsByRole(t)].filter(([role]) => /SchedulerRole/.test(role));
    expect(scheduler).toHaveLength(4);
    for (const [, statements] of scheduler) expect(statements.flatMap(actions)).toEqual(['lambda:InvokeFunction']);
  });

  it('BROKER_AUTH=jkey reaches every function that calls the broker; the OAuth function knows the authorize URL and its state table', () => {
    for (const fn of brokerCallers(t)) {
      expect((fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables.BROKER_AUTH).toBe('jkey');
    }
    t.hasResourceProperties('AWS::Lambda::Function', {
      Environment: {
        Variables: Match.objectLike({
          BROKER_AUTHORIZE_URL: { Ref: 'BrokerAuthorizeUrl' },
          OAUTH_STATE_TABLE_NAME: Match.anyValue(),
        }),
      },
    });
    t.hasResourceProperties('AWS::DynamoDB::Table', {
      KeySchema: [{ AttributeName: 'state', KeyType: 'HASH' }],
      TimeToLiveSpecification: { AttributeName: 'expiresAt', Enabled: true },
    });
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
    expect(outputs).toEqual(
      expect.arrayContaining(['OAuthStartUrl', 'OAuthCallbackUrl', 'OAuthAppSecretArn', 'LoginSecretArn']),
    );
  });

  it('cdk-nag: no unsuppressed finding', () => {
    expect(nagFindings(built)).toEqual([]);
  });

  it('an unknown brokerAuth or sessionRenewal fails the synth with a clear message', () => {
    expect(() => synth({ brokerAuth: 'cookie', egress: 'none' })).toThrow(/brokerAuth must be bearer or jkey/);
    expect(() => synth({ sessionRenewal: 'true', egress: 'none' })).toThrow(/sessionRenewal must be totp .* or off/);
  });
});

describe('session functions, default deployment (OAuth only, bearer, nat-instance)', () => {
  let t: Template;
  beforeAll(() => {
    t = gatewayTemplate(synth());
  });

  it('has OAuthCallback and SessionHealth, no renewal, no login secret, one session schedule', () => {
    const functions = Object.keys(t.findResources('AWS::Lambda::Function')).filter((id) => id.startsWith('Session'));
    expect(functions.map((id) => id.replace(/Function[0-9A-F]{8}$/, '')).sort()).toEqual([
      'SessionOAuthCallback',
      'SessionSessionHealth',
    ]);
    expect(Object.keys(t.findResources('AWS::SecretsManager::Secret')).filter((id) => /Login/.test(id))).toEqual([]);
    // The health check's, the signal worker's sweep and the instrument refresh's.
    t.resourceCountIs('AWS::Scheduler::Schedule', 3);
    const outputs = t.toJSON().Outputs as Record<string, unknown>;
    expect(outputs.LoginSecretArn).toBeUndefined();
    for (const fn of brokerCallers(t)) {
      expect((fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables.BROKER_AUTH).toBe(
        'bearer',
      );
    }
  });

  it('the session functions run in the private subnets like the others, so the broker sees them from the static IPs', () => {
    // Not the CDK's handler of the console's files, which never calls the broker.
    for (const [id, fn] of Object.entries(gatewayFunctionsOf(t)) as [string, Res][]) {
      expect(fn.Properties.VpcConfig, id).toMatchObject({ SubnetIds: [expect.anything(), expect.anything()] });
    }
  });

  it('the OAuth app secret is readable by OAuthCallback alone', () => {
    expect(rolesReaching(t, /SessionOAuthApp/, /./)).toEqual([expect.stringMatching(/^SessionOAuthCallbackRole/)]);
  });

  it('the start and callback URLs are the API URL and the two routes', () => {
    const outputs = t.toJSON().Outputs as Record<string, { Value: unknown }>;
    const api = Object.keys(t.findResources('AWS::ApiGatewayV2::Api'))[0]!;
    const url = (path: string) => ({ 'Fn::Join': ['', [{ 'Fn::GetAtt': [api, 'ApiEndpoint'] }, path]] });
    expect(outputs.OAuthStartUrl!.Value).toEqual(url('/session/oauth/start'));
    expect(outputs.OAuthCallbackUrl!.Value).toEqual(url('/session/oauth/callback'));
    expect(outputs.OAuthAppSecretArn!.Value).toEqual({ Ref: expect.stringMatching(/^SessionOAuthApp/) });
  });
});

describe('an imported OAuth app secret (-c oauthAppSecretArn=...)', () => {
  const arn = 'arn:aws:secretsmanager:ap-south-1:111122223333:secret:gtt-oauth-app-AbCdEf';
  let t: Template;
  let built: ReturnType<typeof synth>;
  beforeAll(() => {
    built = synth({ oauthAppSecretArn: arn, egress: 'none' });
    t = gatewayTemplate(built);
  });

  it('creates no OAuth app secret, points OAuthCallback at the given one, and lets no other role read it', () => {
    expect(Object.keys(t.findResources('AWS::SecretsManager::Secret')).filter((id) => /OAuthApp/.test(id))).toEqual([]);
    t.hasResourceProperties('AWS::Lambda::Function', {
      Environment: { Variables: Match.objectLike({ OAUTH_APP_SECRET_ID: arn }) },
    });
    const readers = [...statementsByRole(t)]
      .filter(([, statements]) => statements.some((st) => JSON.stringify(st.Resource).includes(arn)))
      .map(([role]) => role);
    expect(readers).toEqual([expect.stringMatching(/^SessionOAuthCallbackRole/)]);
    expect((t.toJSON().Outputs as Record<string, { Value: unknown }>).OAuthAppSecretArn!.Value).toBe(arn);
  });

  it('cdk-nag: no unsuppressed finding', () => {
    expect(nagFindings(built)).toEqual([]);
  });
});

describe.each(['nat-instance', 'nat-gateway', 'none'] as const)(
  'session functions with TOTP renewal on, egress %s',
  (egress) => {
    let t: Template;
    let built: ReturnType<typeof synth>;
    beforeAll(() => {
      built = synth({ sessionRenewal: 'totp', egress });
      t = gatewayTemplate(built);
    });

    it('cdk-nag: no unsuppressed finding', () => {
      expect(nagFindings(built)).toEqual([]);
    });

    it('the three session functions run where the gateway functions do', () => {
      const sessionFunctions = (Object.entries(t.findResources('AWS::Lambda::Function')) as [string, Res][]).filter(
        ([id]) => id.startsWith('Session'),
      );
      expect(sessionFunctions).toHaveLength(3);
      // The same subnets and security group as an order function: the broker sees the same static addresses.
      const place = (Object.entries(t.findResources('AWS::Lambda::Function')) as [string, Res][]).find(([id]) =>
        /^PlaceGTTOrderFunction/.test(id),
      )![1];
      for (const [id, fn] of sessionFunctions) {
        if (egress === 'none') expect(fn.Properties.VpcConfig, id).toBeUndefined();
        else {
          expect(fn.Properties.VpcConfig, id).toEqual(place.Properties.VpcConfig);
          expect((fn.Properties.VpcConfig as { SubnetIds: unknown[] }).SubnetIds.length, id).toBeGreaterThanOrEqual(2);
        }
      }
    });
  },
);
