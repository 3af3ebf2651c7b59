/**
 * Plans in the events table, beside the watcher's state (the watcher carries them out): partition `plan`, sort key
 * the planId, the record as JSON and a version. Every change is a put conditional on the version read, so two
 * overlapping watcher runs (or a run and a DELETE) never both act on one plan state. Ended plans expire after 30 days.
 */
import {
  type AttributeValue,
  type DynamoDBClient,
  GetItemCommand,
  PutItemCommand,
  QueryCommand,
} from '@aws-sdk/client-dynamodb';

import { dynamoDbClient } from '../safety/dynamodb-client.js';
import { type Plan, TERMINAL } from '../schemas/plans.js';

const PK = 'plan';
const KEEP_ENDED_SECONDS = 30 * 86_400;

export interface StoredPlan {
  plan: Plan;
  version: number;
}

const isConditionFailure = (error: unknown) =>
  error instanceof Error && error.name === 'ConditionalCheckFailedException';

export class PlanStore {
  private readonly client: DynamoDBClient;

  constructor(private readonly options: { tableName: string; endpoint?: string | undefined }) {
    this.client = dynamoDbClient(options.endpoint);
  }

  private item(plan: Plan, version: number): Record<string, AttributeValue> {
    return {
      pk: { S: PK },
      sk: { S: plan.planId },
      v: { N: String(version) },
      state: { S: plan.state },
      plan: { S: JSON.stringify(plan) },
      ...(TERMINAL.includes(plan.state)
        ? { expiresAt: { N: String(Math.floor(Date.now() / 1000) + KEEP_ENDED_SECONDS) } }
        : {}),
    };
  }

  async get(planId: string): Promise<StoredPlan | undefined> {
    const reply = await this.client.send(
      new GetItemCommand({
        TableName: this.options.tableName,
        Key: { pk: { S: PK }, sk: { S: planId } },
        ConsistentRead: true,
      }),
    );
    return reply.Item ? { plan: JSON.parse(reply.Item.plan!.S!) as Plan, version: Number(reply.Item.v!.N) } : undefined;
  }

  /** False when a plan with this id exists already (a retried create). */
  async create(plan: Plan): Promise<boolean> {
    try {
      await this.client.send(
        new PutItemCommand({
          TableName: this.options.tableName,
          Item: this.item(plan, 1),
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  /** False when someone else changed the plan since `version` was read. */
  async update(plan: Plan, version: number): Promise<boolean> {
    try {
      await this.client.send(
        new PutItemCommand({
          TableName: this.options.tableName,
          Item: this.item(plan, version + 1),
          ConditionExpression: 'v = :v',
          ExpressionAttributeValues: { ':v': { N: String(version) } },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  /** Every plan, oldest id first (strongly consistent, paged through). */
  async list(): Promise<StoredPlan[]> {
    const out: StoredPlan[] = [];
    let start: Record<string, AttributeValue> | undefined;
    do {
      const reply = await this.client.send(
        new QueryCommand({
          TableName: this.options.tableName,
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': { S: PK } },
          ConsistentRead: true,
          ...(start ? { ExclusiveStartKey: start } : {}),
        }),
      );
      for (const item of reply.Items ?? [])
        out.push({ plan: JSON.parse(item.plan!.S!) as Plan, version: Number(item.v!.N) });
      start = reply.LastEvaluatedKey;
    } while (start);
    return out;
  }
}
