/**
 * The DynamoDB gateway endpoint cannot drift from the roles: in a VPC deployment every DynamoDB call of every function
 * passes the endpoint's policy as well as its role's, so for every function in the VPC and every table action its
 * role has, the endpoint must allow that action on that table. Read from the synthesized templates (the default,
 * and every optional function on), not from the grants they are built from.
 */
import { describe, expect, it } from 'vitest';

import { OAUTH_STATE_TABLE_ACTIONS } from '../../infra/constructs/grants.js';
import { gatewayTemplate } from '../support/gateway-template.js';
import { synth } from '../support/stacks-template.js';

type Statement = { Action: string | string[]; Resource: unknown; Condition?: unknown };
type Res = { Type: string; Properties: Record<string, unknown> };

const list = <T>(value: T | T[]): T[] => (Array.isArray(value) ? value : [value]);

/** Each function in the VPC with the table calls its role may make: `<table logical id> <action>`. */
const roleTableCalls = (resources: Record<string, Res>): Map<string, Set<string>> => {
  const byFunction = new Map<string, Set<string>>();
  for (const [id, fn] of Object.entries(resources)) {
    if (fn.Type !== 'AWS::Lambda::Function' || !fn.Properties.VpcConfig) continue;
    const role = (fn.Properties.Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
    const calls = new Set<string>();
    for (const policy of Object.values(resources)) {
      if (policy.Type !== 'AWS::IAM::Policy') continue;
      if (!(policy.Properties.Roles as { Ref: string }[]).some((r) => r.Ref === role)) continue;
      for (const statement of (policy.Properties.PolicyDocument as { Statement: Statement[] }).Statement) {
        const actions = list(statement.Action).filter((a) => a.startsWith('dynamodb:'));
        for (const resource of list(statement.Resource)) {
          // The table's own ARN: a stream's (StreamArn) is read by Lambda's poller, outside the VPC.
          const [table, attribute] = (resource as { 'Fn::GetAtt'?: [string, string] })['Fn::GetAtt'] ?? [];
          if (!table || attribute !== 'Arn' || resources[table]?.Type !== 'AWS::DynamoDB::Table') continue;
          for (const action of actions) calls.add(`${table} ${action}`);
        }
      }
    }
    byFunction.set(id, calls);
  }
  return byFunction;
};

/** What the endpoint's policy allows: `<table logical id> <action>` (its statements carry no condition). */
const endpointCalls = (resources: Record<string, Res>): Set<string> => {
  const endpoints = Object.values(resources).filter((r) => r.Type === 'AWS::EC2::VPCEndpoint');
  expect(endpoints).toHaveLength(1);
  const allowed = new Set<string>();
  for (const statement of (endpoints[0]!.Properties.PolicyDocument as { Statement: Statement[] }).Statement) {
    expect(statement.Condition).toBeUndefined();
    for (const resource of list(statement.Resource)) {
      const table = (resource as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
      for (const action of list(statement.Action)) allowed.add(`${table} ${action}`);
    }
  }
  return allowed;
};

/** Every gateway stack's resources as one template (a role in the Orders stack, its table in the gateway's). */
const resourcesOf = (context: Record<string, unknown>) =>
  (gatewayTemplate(synth(context)).toJSON() as { Resources: Record<string, Res> }).Resources;

describe('the DynamoDB endpoint allows every table call the roles of the functions in the VPC allow', () => {
  const deployments: [string, Record<string, unknown>][] = [
    ['the default deployment', {}],
    [
      'every optional function on (TOTP renewal, end-of-day logout, notify formatter)',
      {
        broker: 'shoonya',
        sessionRenewal: 'totp',
        endOfDayLogout: 'cron(45 23 ? * MON-FRI *)',
        notifyWebhookUrl: 'https://hooks.example.com/x',
        notifyWebhookFormat: 'slack',
      },
    ],
  ];
  it.each(deployments)('%s', (_, context) => {
    const resources = resourcesOf(context);
    const roles = roleTableCalls(resources);
    const allowed = endpointCalls(resources);
    // Every function of the set is in the VPC, and the order functions at least reach a table.
    expect(roles.size).toBeGreaterThan(20);
    const missing = [...roles].flatMap(([fn, calls]) =>
      [...calls].filter((c) => !allowed.has(c)).map((c) => `${fn}: ${c}`),
    );
    expect(missing).toEqual([]);
    // Nothing is allowed at the endpoint that no function in the VPC is granted.
    const granted = new Set([...roles.values()].flatMap((calls) => [...calls]));
    expect([...allowed].filter((c) => !granted.has(c))).toEqual([]);
  });

  it('the two calls a deploy was refused: the OAuth callback’s UpdateItem, the webhook’s ConditionCheckItem on the events table', () => {
    const resources = resourcesOf({});
    const allowed = endpointCalls(resources);
    const tableId = (prefix: string) =>
      Object.keys(resources).find((id) => id.startsWith(prefix) && resources[id]!.Type === 'AWS::DynamoDB::Table')!;
    expect(OAUTH_STATE_TABLE_ACTIONS).toContain('dynamodb:UpdateItem');
    expect(allowed.has(`${tableId('SessionOAuthStateTable')} dynamodb:UpdateItem`)).toBe(true);
    expect(allowed.has(`${tableId('EventsTable')} dynamodb:ConditionCheckItem`)).toBe(true);
    const oauth = Object.keys(resources).find(
      (id) => id.startsWith('SessionOAuth') && resources[id]!.Type === 'AWS::Lambda::Function',
    )!;
    expect(roleTableCalls(resources).get(oauth)).toEqual(
      new Set(['PutItem', 'UpdateItem', 'DeleteItem'].map((a) => `${tableId('SessionOAuthStateTable')} dynamodb:${a}`)),
    );
  });
});
