/**
 * The IAM calls a local request stands for (local/permissions/requests.ts) and the template's references as this
 * machine's names (resolve.ts), as AWS evaluates them: one call per transaction item, the partition keys a request
 * touches as `dynamodb:LeadingKeys`, a reference through another stack's export resolved like a local one.
 */
import { describe, expect, it } from 'vitest';

import type { StackPermissions } from '../../infra/scripts/stack-permissions.js';
import { dynamoDbCalls, eventBridgeCalls } from '../../local/permissions/requests.js';
import { createResolver } from '../../local/permissions/resolve.js';

const TABLE = 'arn:aws:dynamodb:us-east-1:000000000000:table/events';
const pk = () => 'pk';

describe('DynamoDB requests as IAM calls', () => {
  it('a TransactWriteItems is one call per item, each with its own action and key', () => {
    const calls = dynamoDbCalls(
      'TransactWriteItems',
      {
        TransactItems: [
          { ConditionCheck: { TableName: 'events', Key: { pk: { S: 'strategy-token' }, sk: { S: 'h' } } } },
          { Update: { TableName: 'events', Key: { pk: { S: 'signal-rate' }, sk: { S: 's' } } } },
          { Put: { TableName: 'events', Item: { pk: { S: 'signal' }, sk: { S: '1' }, body: { S: '{}' } } } },
          { Delete: { TableName: 'idem', Key: { id: { S: 'k' } } } },
        ],
      },
      (table) => (table === 'idem' ? 'id' : 'pk'),
    );
    expect(calls).toEqual([
      {
        action: 'dynamodb:ConditionCheckItem',
        resource: TABLE,
        context: { 'dynamodb:LeadingKeys': ['strategy-token'] },
      },
      { action: 'dynamodb:UpdateItem', resource: TABLE, context: { 'dynamodb:LeadingKeys': ['signal-rate'] } },
      { action: 'dynamodb:PutItem', resource: TABLE, context: { 'dynamodb:LeadingKeys': ['signal'] } },
      {
        action: 'dynamodb:DeleteItem',
        resource: 'arn:aws:dynamodb:us-east-1:000000000000:table/idem',
        context: { 'dynamodb:LeadingKeys': ['k'] },
      },
    ]);
  });

  it("a Query's leading key is its key condition's partition value, named or not; an index is its own resource", () => {
    const named = dynamoDbCalls(
      'Query',
      {
        TableName: 'events',
        KeyConditionExpression: '#p = :p AND begins_with(sk, :s)',
        ExpressionAttributeNames: { '#p': 'pk' },
        ExpressionAttributeValues: { ':p': { S: 'plan' }, ':s': { S: 'x' } },
      },
      pk,
    );
    expect(named).toEqual([
      { action: 'dynamodb:Query', resource: TABLE, context: { 'dynamodb:LeadingKeys': ['plan'] } },
    ]);
    const plain = dynamoDbCalls(
      'Query',
      {
        TableName: 'events',
        IndexName: 'byTime',
        KeyConditionExpression: 'pk = :v',
        ExpressionAttributeValues: { ':v': { S: 'history' } },
      },
      pk,
    );
    expect(plain[0]).toMatchObject({
      resource: `${TABLE}/index/byTime`,
      context: { 'dynamodb:LeadingKeys': ['history'] },
    });
  });

  it('a batch is one call per table with every partition key it touches, each once', () => {
    const calls = dynamoDbCalls(
      'BatchWriteItem',
      {
        RequestItems: {
          events: [
            { PutRequest: { Item: { pk: { S: 'known#1' }, sk: { S: 'a' } } } },
            { PutRequest: { Item: { pk: { S: 'known#1' }, sk: { S: 'b' } } } },
            { DeleteRequest: { Key: { pk: { S: 'history' }, sk: { S: 'c' } } } },
          ],
        },
      },
      pk,
    );
    expect(calls).toEqual([
      {
        action: 'dynamodb:BatchWriteItem',
        resource: TABLE,
        context: { 'dynamodb:LeadingKeys': ['known#1', 'history'] },
      },
    ]);
  });

  it('PutEvents is one call per bus with its entries sources and detail types', () => {
    expect(
      eventBridgeCalls('AWSEvents.PutEvents', {
        Entries: [
          { EventBusName: 'gtt', Source: 'gtt-gateway', DetailType: 'GTT Placed' },
          { EventBusName: 'gtt', Source: 'gtt-gateway', DetailType: 'GTT Cancelled' },
        ],
      }),
    ).toEqual([
      {
        action: 'events:PutEvents',
        resource: 'arn:aws:events:us-east-1:000000000000:event-bus/gtt',
        context: { 'events:source': ['gtt-gateway'], 'events:detail-type': ['GTT Placed', 'GTT Cancelled'] },
      },
    ]);
  });
});

describe("the template's references as this machine's names", () => {
  const permissions: StackPermissions = {
    functions: {
      Reader: {
        stack: 'Functions',
        role: 'ReaderRole',
        inVpc: false,
        statements: [],
        environment: { TABLE_NAME: { 'Fn::ImportValue': 'Data:Table' }, SECRET_ID: { Ref: 'Secret' } },
      },
    },
    dynamodbEndpointPolicies: [],
    resources: {
      Data: { Table1: 'AWS::DynamoDB::Table' },
      Functions: { Secret: 'AWS::SecretsManager::Secret', Api: 'AWS::ApiGatewayV2::Api', Logs: 'AWS::Logs::LogGroup' },
    },
    exports: {
      'Data:Table': { stack: 'Data', value: { Ref: 'Table1' } },
      'Data:TableArn': { stack: 'Data', value: { 'Fn::GetAtt': ['Table1', 'Arn'] } },
    },
    context: {},
  };
  const { resolve } = createResolver(permissions, { Reader: { TABLE_NAME: 'local-table', SECRET_ID: 'gtt/secret' } });

  it("learns each resource's local name from the variable that names it, through another stack's export too", () => {
    expect(resolve({ 'Fn::ImportValue': 'Data:TableArn' }, 'Functions')).toBe(
      'arn:aws:dynamodb:us-east-1:000000000000:table/local-table',
    );
    expect(resolve({ 'Fn::Join': ['', [{ 'Fn::GetAtt': ['Table1', 'Arn'] }, '/index/*']] }, 'Data')).toBe(
      'arn:aws:dynamodb:us-east-1:000000000000:table/local-table/index/*',
    );
    // A secret's Ref is its ARN.
    expect(resolve({ Ref: 'Secret' }, 'Functions')).toBe(
      'arn:aws:secretsmanager:us-east-1:000000000000:secret:gtt/secret',
    );
    expect(
      resolve(
        {
          'Fn::Join': [
            '',
            [
              'arn:',
              { Ref: 'AWS::Partition' },
              ':execute-api:',
              { Ref: 'AWS::Region' },
              ':',
              { Ref: 'AWS::AccountId' },
              ':',
              { Ref: 'Api' },
              '/$default/GET/x',
            ],
          ],
        },
        'Functions',
      ),
    ).toBe('arn:aws:execute-api:us-east-1:000000000000:local/$default/GET/x');
  });

  it('a resource no function names matches nothing here', () => {
    expect(resolve({ 'Fn::GetAtt': ['Logs', 'Arn'] }, 'Functions')).toBe('unresolved:Logs.Arn');
    expect(resolve({ 'Fn::ImportValue': 'Missing:Export' }, 'Functions')).toBe('unresolved:import:Missing:Export');
  });
});
