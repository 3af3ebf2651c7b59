/**
 * The CDK stacks' least privilege: no bare "*" resource the project writes, one secret per function role, and who
 * may reach the control table (order-rate governor) and the idempotency table, with those tables' settings.
 */
import type { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';

import { FUNCTIONS, OPERATIONS } from '../../functions/manifest/index.js';
import { LAMBDA_ENI_ACTIONS } from '../../infra/constructs/egress.js';
import { gatewayTemplate } from '../support/gateway-template.js';
import {
  actions,
  gateway,
  type Statement,
  statementsOf,
  synth,
  useDefaultStacks,
  workflow,
} from '../support/stacks-template.js';

useDefaultStacks();

/**
 * Where the roles of the functions other than the operations' are: the `Session` and `Events` constructs, and the
 * stack's own other functions (their construct ids are their names), from their definitions.
 */
const OTHER_FUNCTIONS = [
  'Session',
  'Events',
  ...FUNCTIONS.filter((f) => !f.operation && f.notes.home === 'stack').map((f) => f.name),
  // The CDK's handler that copies the console's files into its bucket.
  'CustomCDKBucketDeployment',
  'ConsoleFilesRole',
];

describe('least privilege', () => {
  it("no statement has a bare '*' resource but the X-Ray, Lambda ENI and stream-listing actions that need it (not the console copier's invalidation)", () => {
    for (const template of [gateway, workflow]) {
      for (const statement of statementsOf(template)) {
        const resources = Array.isArray(statement.Resource) ? statement.Resource : [statement.Resource];
        if (resources.includes('*')) {
          expect(
            actions(statement).every(
              (a) =>
                a.startsWith('xray:') ||
                (LAMBDA_ENI_ACTIONS.includes(a) && template === gateway) ||
                // The EventForwarder's stream trigger: ListStreams has no resource-level permission.
                (a === 'dynamodb:ListStreams' && template === gateway) ||
                (a.startsWith('logs:') && template === workflow),
            ),
          ).toBe(true);
        }
      }
    }
  });

  it('each function role may read only the one secret, and only order functions touch the idempotency table', () => {
    // The function roles (the egress adds the NAT instances' and the flow log's, which are not Lambda's).
    const roles = Object.keys(
      gateway.findResources('AWS::IAM::Role', {
        Properties: { AssumeRolePolicyDocument: { Statement: [{ Principal: { Service: 'lambda.amazonaws.com' } }] } },
      }),
    ).filter((id) => !OTHER_FUNCTIONS.some((prefix) => id.startsWith(prefix)));
    expect(roles).toHaveLength(OPERATIONS.length);
    const policies = (
      Object.values(gateway.findResources('AWS::IAM::Policy')) as {
        Properties: { PolicyDocument: { Statement: Statement[] }; Roles: { Ref: string }[] };
      }[]
    ).filter((p) => p.Properties.Roles.some((r) => roles.includes(r.Ref)));
    expect(policies).toHaveLength(OPERATIONS.length);
    for (const policy of policies) {
      const statements = policy.Properties.PolicyDocument.Statement;
      const secretStatements = statements.filter((s) => actions(s).some((a) => a.startsWith('secretsmanager:')));
      const isLogout = policy.Properties.Roles.some((r) => r.Ref.startsWith('LogoutRole'));
      // Logout also writes the secret (marks it logged out); every other function only reads it.
      expect(secretStatements).toHaveLength(isLogout ? 2 : 1);
      for (const st of secretStatements) expect(st.Resource).toEqual({ Ref: expect.stringMatching(/^BrokerSession/) });
      expect(secretStatements.flatMap(actions).sort()).toEqual([
        'secretsmanager:DescribeSecret',
        'secretsmanager:GetSecretValue',
        ...(isLogout ? ['secretsmanager:PutSecretValue'] : []),
      ]);
      const onIdempotency = (st: Statement) => /IdempotencyTable/.test(JSON.stringify(st.Resource));
      for (const s of statements.filter(
        (st) => actions(st).some((a) => a.startsWith('dynamodb:')) && onIdempotency(st),
      )) {
        expect(actions(s).sort()).toEqual([
          'dynamodb:DeleteItem',
          'dynamodb:GetItem',
          'dynamodb:PutItem',
          'dynamodb:UpdateItem',
        ]);
      }
      // The control table: the governor's read and conditional put, the order leases' put and updates (and the
      // switch's and the session's end's update), nothing else: nothing deletes a control item.
      const onControl = (st: Statement) => /ControlTable/.test(JSON.stringify(st.Resource));
      // GetGTTOrder only reads an order's lease (when its last change ended), in its copy read's BatchGetItem.
      for (const s of statements.filter((st) => actions(st).some((a) => a.startsWith('dynamodb:')) && onControl(st))) {
        expect(actions(s).sort()).toEqual(
          policy.Properties.Roles.some((r) => r.Ref.startsWith('GetGTTOrderRole'))
            ? ['dynamodb:BatchGetItem']
            : isLogout
              ? // A logout only writes when the session ended.
                ['dynamodb:UpdateItem']
              : ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'],
        );
      }
      // The instruments' copy: the order path's read and its write-back of what it read from the broker, nothing else.
      const onInstruments = (st: Statement) => /InstrumentsTable/.test(JSON.stringify(st.Resource));
      for (const s of statements.filter(
        (st) => actions(st).some((a) => a.startsWith('dynamodb:')) && onInstruments(st),
      ))
        expect(actions(s).sort()).toEqual(['dynamodb:GetItem', 'dynamodb:UpdateItem']);
      // Any other table is the events table (events-default.test.ts checks what each function may do there).
      for (const s of statements.filter(
        (st) =>
          actions(st).some((a) => a.startsWith('dynamodb:')) &&
          !onIdempotency(st) &&
          !onControl(st) &&
          !onInstruments(st),
      )) {
        expect(JSON.stringify(s.Resource)).toMatch(/EventsTable/);
      }
    }
    const withTable = policies.filter((p) =>
      p.Properties.PolicyDocument.Statement.some(
        (s) => actions(s).some((a) => a.startsWith('dynamodb:')) && /IdempotencyTable/.test(JSON.stringify(s.Resource)),
      ),
    );
    expect(withTable).toHaveLength(OPERATIONS.filter((op) => op.idempotency).length);
  });
});

describe('control table (order-rate governor)', () => {
  const functionsOf = (t: Template) =>
    Object.entries(
      t.findResources('AWS::Lambda::Function') as Record<
        string,
        { Properties: { Environment?: { Variables?: Record<string, unknown> } } }
      >,
    );

  it('is on-demand, encrypted, with point-in-time recovery; only given-back leases expire (expiresAt)', () => {
    const tables = gateway.findResources('AWS::DynamoDB::Table', {
      Properties: { KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }] },
    });
    const control = Object.entries(tables).filter(([id]) => id.startsWith('ControlTable'));
    expect(control).toHaveLength(1);
    expect(control[0]![1]).toMatchObject({
      Properties: {
        BillingMode: 'PAY_PER_REQUEST',
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
        SSESpecification: { SSEEnabled: true },
      },
    });
    // The kill switch's item carries no expiresAt: it outlives everything (functions/orders/lease.ts sets it).
    expect((control[0]![1] as { Properties: Record<string, unknown> }).Properties.TimeToLiveSpecification).toEqual({
      AttributeName: 'expiresAt',
      Enabled: true,
    });
  });

  it('every order function, the kill switch and the plans (and only those) get the table, and only those may read or write it', () => {
    const orderIds = OPERATIONS.filter((op) => op.kind === 'order').map((op) => op.name);
    // The plans act through the order operations: the Plans function, and the watcher that carries them out.
    // Logout writes the session's end into the account's control item (so does SessionLogout, when deployed).
    // GetGTTOrder reads an order's lease (when its last change ended) beside the watcher's copy.
    // Coverage closes a position (POST /positions/close) through the order core's plain PlaceOrder.
    const actors = [
      ...orderIds,
      'KillSwitch',
      'Plans',
      'EventsGttWatcher',
      'SignalWorker',
      'Logout',
      'GetGTTOrder',
      'Coverage',
    ];
    const withTable = functionsOf(gateway).filter(
      ([, f]) => f.Properties.Environment?.Variables?.CONTROL_TABLE_NAME !== undefined,
    );
    expect(withTable.map(([id]) => actors.find((name) => id.startsWith(name))).sort()).toEqual([...actors].sort());
    const policies = Object.values(gateway.findResources('AWS::IAM::Policy')) as {
      Properties: { PolicyDocument: { Statement: Statement[] } };
    }[];
    const onControl = policies.filter((p) =>
      p.Properties.PolicyDocument.Statement.some((st) => /ControlTable/.test(JSON.stringify(st.Resource))),
    );
    // The order functions (GetItem, PutItem), the kill switch, which also turns the switch (UpdateItem), the plans.
    // ... the signal worker (an alert may turn the kill switch), Logout and GetGTTOrder (BatchGetItem only), Coverage.
    expect(onControl).toHaveLength(orderIds.length + 7);
  });

  it('the kill switch may turn the switch (UpdateItem) besides the governor calls, on its three IAM routes', () => {
    const policies = Object.entries(gateway.findResources('AWS::IAM::Policy')) as [
      string,
      { Properties: { PolicyDocument: { Statement: Statement[] } } },
    ][];
    const [, policy] = policies.find(([id]) => id.startsWith('KillSwitch'))!;
    const onControl = policy.Properties.PolicyDocument.Statement.filter((st) =>
      /ControlTable/.test(JSON.stringify(st.Resource)),
    );
    // The governor's calls and the order leases of its cancels (put, updates); UpdateItem turns the switch.
    expect(onControl.flatMap(actions).sort()).toEqual(['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem']);
    // On the idempotency table only puts: the outbox items of its sweep's cancels (they carry no key), and the record
    // of each swept order a journaled write placed; nothing of the journal's own records.
    const onIdempotency = policy.Properties.PolicyDocument.Statement.filter((st) =>
      /IdempotencyTable/.test(JSON.stringify(st.Resource)),
    );
    expect(onIdempotency.map((st) => [actions(st), st.Condition])).toEqual([
      [['dynamodb:PutItem'], { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['outbox#*'] } }],
      [['dynamodb:PutItem'], { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['gone#*'] } }],
    ]);
    const env = functionsOf(gateway).find(([id]) => id.startsWith('KillSwitch'))![1].Properties.Environment!.Variables!;
    expect(env).toMatchObject({ CONTROL_TABLE_NAME: expect.anything(), EVENT_BUS_NAME: expect.anything() });
  });

  it('order functions default to 8/s and 120/min; a preset that states its own rate (TradeSmart) sets it; the context wins', () => {
    const envOf = (t: Template) =>
      functionsOf(t).find(([id]) => id.startsWith('PlaceGTTOrder'))![1].Properties.Environment!.Variables!;
    expect(envOf(gateway).ORDER_RATE_PER_SECOND).toBeUndefined();
    const tradesmart = gatewayTemplate(synth({ broker: 'tradesmart' }));
    expect(envOf(tradesmart)).toMatchObject({ ORDER_RATE_PER_SECOND: '8', ORDER_RATE_PER_MINUTE: '110' });
    const chosen = gatewayTemplate(synth({ broker: 'tradesmart', ORDER_RATE_PER_MINUTE: '60' }));
    expect(envOf(chosen)).toMatchObject({ ORDER_RATE_PER_SECOND: '8', ORDER_RATE_PER_MINUTE: '60' });
  });
});

describe('idempotency table', () => {
  it('is on-demand with TTL on the expiry attribute and point-in-time recovery', () => {
    gateway.hasResourceProperties('AWS::DynamoDB::Table', {
      KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
      BillingMode: 'PAY_PER_REQUEST',
      TimeToLiveSpecification: { AttributeName: 'expiration', Enabled: true },
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
    });
  });
});
