/**
 * The previews awaiting their confirm, in the events table, for the stateless remote server (every request may land
 * on another container): `mcp-confirmation` / <assistantId>#<confirmationId>, holding the confirmation as JSON, gone
 * after its TTL. `take` is one conditional UpdateItem that marks it used and answers what it was before, so of two
 * confirms at once only one is `first`. An id is found only under the assistant that previewed it: another
 * assistant's confirm of it answers `unknown`.
 */
import { type DynamoDBClient, PutItemCommand, UpdateItemCommand } from '@aws-sdk/client-dynamodb';

import type { Confirmation, ConfirmationStore, Taken } from '../../mcp/confirmations.js';
import { dynamoDbClient, isConditionFailure } from '../base/aws/dynamodb-client.js';

const PK = 'mcp-confirmation';
/** Kept a while past its expiry (DynamoDB's TTL deletes within days): `take` checks the expiry itself. */
const KEEP_SECONDS = 3_600;

export class DynamoConfirmationStore implements ConfirmationStore {
  private readonly client: DynamoDBClient;

  constructor(private readonly options: { tableName: string; owner: string; endpoint?: string | undefined }) {
    this.client = dynamoDbClient(options.endpoint);
  }

  private key(id: string) {
    return { pk: { S: PK }, sk: { S: `${this.options.owner}#${id}` } };
  }

  async put(confirmation: Confirmation): Promise<void> {
    await this.client.send(
      new PutItemCommand({
        TableName: this.options.tableName,
        Item: {
          ...this.key(confirmation.id),
          record: { S: JSON.stringify(confirmation) },
          used: { BOOL: false },
          expiresAt: { N: String(Math.floor(Math.max(confirmation.expiresAt, Date.now()) / 1000) + KEEP_SECONDS) },
        },
      }),
    );
  }

  async take(id: string, now: number): Promise<Taken> {
    // An id of another shape was never issued: nothing to look up.
    if (!/^[0-9a-f-]{36}$/.test(id)) return { state: 'unknown' };
    try {
      const reply = await this.client.send(
        new UpdateItemCommand({
          TableName: this.options.tableName,
          Key: this.key(id),
          UpdateExpression: 'SET used = :true',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':true': { BOOL: true } },
          ReturnValues: 'ALL_OLD',
        }),
      );
      const old = reply.Attributes;
      const confirmation = JSON.parse(old?.record?.S ?? 'null') as Confirmation | null;
      if (!confirmation) return { state: 'unknown' };
      if (now > confirmation.expiresAt) return { state: 'expired' };
      return { state: old?.used?.BOOL ? 'again' : 'first', confirmation };
    } catch (error) {
      if (isConditionFailure(error)) return { state: 'unknown' };
      throw error;
    }
  }
}
