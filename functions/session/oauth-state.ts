/**
 * The `state` values of the OAuth flow: issued by the start route, stored with an expiry, and consumed at most once
 * by the callback (a conditional delete), so a replayed or forged redirect writes nothing.
 */
import { randomBytes } from 'node:crypto';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';

export class OAuthStateStore {
  private readonly client: DynamoDBDocumentClient;

  constructor(
    private readonly tableName: string,
    private readonly ttlSeconds: number,
    endpoint?: string,
  ) {
    this.client = DynamoDBDocumentClient.from(new DynamoDBClient(endpoint ? { endpoint } : {}));
  }

  /** A fresh unguessable value (256 bits), valid for the TTL. */
  async issue(now = Date.now()): Promise<{ state: string; expiresAt: number }> {
    const state = randomBytes(32).toString('base64url');
    const expiresAt = Math.floor(now / 1000) + this.ttlSeconds;
    await this.client.send(
      new PutCommand({ TableName: this.tableName, Item: { state, expiresAt }, ConditionExpression: 'attribute_not_exists(#s)', ExpressionAttributeNames: { '#s': 'state' } }),
    );
    return { state, expiresAt };
  }

  /** True once for a value this store issued and that has not expired; false for unknown, used or expired ones. */
  async consume(state: string, now = Date.now()): Promise<boolean> {
    try {
      await this.client.send(
        new DeleteCommand({
          TableName: this.tableName,
          Key: { state },
          // DynamoDB's TTL deletes late, so the expiry is checked here too.
          ConditionExpression: 'attribute_exists(#s) AND expiresAt > :now',
          ExpressionAttributeNames: { '#s': 'state' },
          ExpressionAttributeValues: { ':now': Math.floor(now / 1000) },
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof Error && error.name === 'ConditionalCheckFailedException') return false;
      throw error;
    }
  }
}
