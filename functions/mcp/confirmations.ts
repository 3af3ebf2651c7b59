/**
 * The previews awaiting their confirm, in the events table, for the stateless remote server (every request may land
 * on another container): `mcp-confirmation` / <assistantId>#<confirmationId>, holding the confirmation as JSON, gone
 * after its TTL. `peek` is one consistent GetItem that marks nothing (a refused confirm leaves the id as it was);
 * `take` is one conditional UpdateItem that marks it used and answers what it was before, so of two confirms at once
 * only one is `first`; `settle` keeps the first confirm's answer beside it (`answer`, as JSON), which later confirms
 * replay. An id is found only under the assistant that previewed it: another assistant's confirm of it answers
 * `unknown`.
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';

import type { Confirmation, ConfirmationStore, SettledAnswer, Taken } from '../../mcp/confirmations.js';
import {
  type DynamoClient,
  dynamoDbClient,
  GetItemCommand,
  isConditionFailure,
  PutItemCommand,
  UpdateItemCommand,
} from '../base/aws/dynamo.js';

/** The previews' partition (the events table's `pk`). */
export const CONFIRMATION_PK = 'mcp-confirmation';
const PK = CONFIRMATION_PK;
/** Kept a while past its expiry (DynamoDB's TTL deletes within days): `take` checks the expiry itself. */
const KEEP_SECONDS = 3_600;
/** The shape of an id this server issues (a UUID): anything else was never issued. */
const ISSUED = /^[0-9a-f-]{36}$/;

export class DynamoConfirmationStore implements ConfirmationStore {
  private readonly client: DynamoClient;

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

  /** What a stored item is, for a confirm at `now`. */
  private static takenOf(item: Record<string, AttributeValue> | undefined, now: number): Taken {
    const confirmation = JSON.parse(item?.record?.S ?? 'null') as Confirmation | null;
    if (!confirmation) return { state: 'unknown' };
    if (now > confirmation.expiresAt) return { state: 'expired' };
    if (!item?.used?.BOOL) return { state: 'first', confirmation };
    const answer = item.answer?.S ? (JSON.parse(item.answer.S) as SettledAnswer) : undefined;
    return { state: 'again', confirmation, ...(answer ? { answer } : {}) };
  }

  async peek(id: string, now: number): Promise<Taken> {
    // An id of another shape was never issued: nothing to look up.
    if (!ISSUED.test(id)) return { state: 'unknown' };
    const reply = await this.client.send(
      new GetItemCommand({ TableName: this.options.tableName, Key: this.key(id), ConsistentRead: true }),
    );
    return DynamoConfirmationStore.takenOf(reply.Item, now);
  }

  async take(id: string, now: number): Promise<Taken> {
    if (!ISSUED.test(id)) return { state: 'unknown' };
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
      return DynamoConfirmationStore.takenOf(reply.Attributes, now);
    } catch (error) {
      if (isConditionFailure(error)) return { state: 'unknown' };
      throw error;
    }
  }

  async settle(id: string, answer: SettledAnswer): Promise<void> {
    if (!ISSUED.test(id)) return;
    try {
      await this.client.send(
        new UpdateItemCommand({
          TableName: this.options.tableName,
          Key: this.key(id),
          UpdateExpression: 'SET answer = :answer',
          ConditionExpression: 'used = :true',
          ExpressionAttributeValues: { ':answer': { S: JSON.stringify(answer) }, ':true': { BOOL: true } },
        }),
      );
    } catch (error) {
      // Gone or never taken: there is no later confirm to replay it to.
      if (!isConditionFailure(error)) throw error;
    }
  }
}
