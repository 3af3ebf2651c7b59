/**
 * Plans in the events table, beside the watcher's state (the watcher carries them out): partition `plan`, sort key
 * the planId, the record as JSON, a version, and the plan's outbox (its events not yet handed to the EventForwarder).
 * Every change is a put conditional on the version read, so two overlapping watcher runs (or a run and a DELETE)
 * never both act on one plan state; an event is written in the same put as the change it tells of. Ended plans
 * expire after 30 days.
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';

import {
  DeleteItemCommand,
  type DynamoClient,
  dynamoDbClient,
  GetItemCommand,
  isConditionFailure,
  PutItemCommand,
  QueryCommand,
  UpdateItemCommand,
} from '../base/aws/dynamo.js';
import { TERMINAL } from '../base/schemas/event-types.js';
import type { LifecycleEvent } from '../base/schemas/events.js';
import { decodeCursor, encodeCursor } from '../base/schemas/paging.js';
import type { Plan } from '../base/schemas/plans.js';

/** The plans' partition (the events table's `pk`): one item per plan, sort key the planId. */
export const PLAN_PK = 'plan';
const KEEP_ENDED_SECONDS = 30 * 86_400;

export interface StoredPlan {
  plan: Plan;
  version: number;
  /** Events written with the plan's changes and not yet handed to the outbox. */
  outbox: LifecycleEvent[];
}

const storedOf = (item: Record<string, AttributeValue>): StoredPlan => ({
  plan: JSON.parse(item.plan!.S!) as Plan,
  version: Number(item.v!.N),
  outbox: item.outbox?.S ? (JSON.parse(item.outbox.S) as LifecycleEvent[]) : [],
});

export class PlanStore {
  private readonly client: DynamoClient;

  constructor(private readonly options: { tableName: string; endpoint?: string | undefined }) {
    this.client = dynamoDbClient(options.endpoint);
  }

  private key(planId: string): Record<string, AttributeValue> {
    return { pk: { S: PLAN_PK }, sk: { S: planId } };
  }

  private item(plan: Plan, version: number, outbox: readonly LifecycleEvent[]): Record<string, AttributeValue> {
    return {
      ...this.key(plan.planId),
      v: { N: String(version) },
      state: { S: plan.state },
      plan: { S: JSON.stringify(plan) },
      ...(outbox.length ? { outbox: { S: JSON.stringify(outbox) } } : {}),
      ...(TERMINAL.includes(plan.state)
        ? { expiresAt: { N: String(Math.floor(Date.now() / 1000) + KEEP_ENDED_SECONDS) } }
        : {}),
    };
  }

  private async put(item: Record<string, AttributeValue>, condition: string, values?: Record<string, AttributeValue>) {
    try {
      await this.client.send(
        new PutItemCommand({
          TableName: this.options.tableName,
          Item: item,
          ConditionExpression: condition,
          ...(values ? { ExpressionAttributeValues: values } : {}),
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  async get(planId: string): Promise<StoredPlan | undefined> {
    const reply = await this.client.send(
      new GetItemCommand({ TableName: this.options.tableName, Key: this.key(planId), ConsistentRead: true }),
    );
    return reply.Item ? storedOf(reply.Item) : undefined;
  }

  /** False when a plan with this id exists already (a retried or concurrent create). */
  async create(plan: Plan): Promise<boolean> {
    return this.put(this.item(plan, 1, []), 'attribute_not_exists(pk)');
  }

  /** False when someone else changed the plan since `version` was read. `outbox`: the whole outbox to keep. */
  async update(plan: Plan, version: number, outbox: readonly LifecycleEvent[]): Promise<boolean> {
    return this.put(this.item(plan, version + 1, outbox), 'v = :v', { ':v': { N: String(version) } });
  }

  /** The outbox was handed on: empty it, unless the plan changed meanwhile (its put carried these events on). */
  async clearOutbox(planId: string, version: number): Promise<void> {
    try {
      await this.client.send(
        new UpdateItemCommand({
          TableName: this.options.tableName,
          Key: this.key(planId),
          UpdateExpression: 'REMOVE outbox',
          ConditionExpression: 'v = :v',
          ExpressionAttributeValues: { ':v': { N: String(version) } },
        }),
      );
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
  }

  /** A plan whose first GTT the broker certainly refused: nothing of it exists, so neither does its record. */
  async remove(planId: string, version: number): Promise<boolean> {
    try {
      await this.client.send(
        new DeleteItemCommand({
          TableName: this.options.tableName,
          Key: this.key(planId),
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
    let cursor: string | undefined;
    do {
      const page = await this.page(1_000, cursor);
      out.push(...page.plans);
      cursor = page.nextCursor;
    } while (cursor);
    return out;
  }

  /** One page of plans by id, from a cursor of an earlier page (base/schemas/paging.ts). */
  async page(limit: number, cursor?: string): Promise<{ plans: StoredPlan[]; nextCursor?: string }> {
    const position = cursor === undefined ? undefined : decodeCursor(cursor, 'plans');
    if (typeof position === 'string') throw new Error(position); // the input schema refused it already
    const reply = await this.client.send(
      new QueryCommand({
        TableName: this.options.tableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': { S: PLAN_PK } },
        ConsistentRead: true,
        Limit: limit,
        ...(position ? { ExclusiveStartKey: this.key(position.after) } : {}),
      }),
    );
    const plans = (reply.Items ?? []).map(storedOf);
    const last = reply.LastEvaluatedKey?.sk?.S;
    return { plans, ...(last ? { nextCursor: encodeCursor({ list: 'plans', after: last, seen: 1 }) } : {}) };
  }
}
