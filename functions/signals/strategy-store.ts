/**
 * Strategies in the events table (beside the plans), as records holding their webhook token's hash
 * (base/aws/token-holders.ts): `strategy` / <strategyId> and `strategy-token` / <token hash>, so the webhook finds a
 * strategy by its token in one consistent GetItem. A PATCH changes both items in one transaction.
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';

import { TransactWriteItemsCommand } from '../base/aws/dynamo.js';
import { type Held, holderKeys, holderPartitions, TokenHolderTable } from '../base/aws/token-holders.js';
import type { Strategy } from '../base/schemas/signals.js';

/** A strategy as its token item holds it: `json` is the stored text, which a write can be made conditional on. */
export interface TokenStrategy {
  strategy: Strategy;
  tokenHash: string;
  json: string;
}

export type StoredStrategy = Held<'strategy', Strategy>;

/** The strategies' partitions (`strategy`, `strategy-token`): what the Strategies function's grant names. */
export const STRATEGY_PARTITIONS = holderPartitions('strategy');

/** The token item's key (`strategy-token` / <token hash>): an alert's transaction checks it (intake.ts). */
export const tokenItemKey = holderKeys('strategy').token;

export class StrategyStore extends TokenHolderTable<'strategy', Strategy> {
  constructor(options: { tableName: string; endpoint?: string | undefined }) {
    // An alert's transaction holding the token item (intake.ts) makes DynamoDB refuse its delete for a moment.
    super(options, { kind: 'strategy', idAttribute: 'strategyId', idOf: (s) => s.strategyId, deleteTries: 5 });
  }

  /** The strategy whose token hashes to `hash`, or undefined (compared in constant time). */
  async byTokenHash(hash: string): Promise<TokenStrategy | undefined> {
    const found = await this.findByTokenHash(hash);
    return found && { strategy: found.record, tokenHash: found.tokenHash, json: found.json };
  }

  /**
   * The strategy changed (PATCH), its token kept: the strategy item and its token item in one transaction, each
   * conditional on holding the strategy as read, so the webhook's next write (conditional on the token item) sees
   * the change at once. False: it changed meanwhile (another PATCH, a rotation, a delete).
   */
  async update(previous: StoredStrategy, strategy: Strategy): Promise<boolean> {
    const old = previous.json ?? JSON.stringify(previous.strategy);
    const next = JSON.stringify(strategy);
    const update = (k: Record<string, AttributeValue>, condition: string) => ({
      Update: {
        TableName: this.options.tableName,
        Key: k,
        UpdateExpression: 'SET #strategy = :new',
        ConditionExpression: condition,
        ExpressionAttributeNames: { '#strategy': 'strategy' },
        ExpressionAttributeValues: {
          ':new': { S: next },
          ':old': { S: old },
          ...(condition.includes(':hash') ? { ':hash': { S: previous.tokenHash } } : {}),
        },
      },
    });
    try {
      await this.client.send(
        new TransactWriteItemsCommand({
          TransactItems: [
            update(this.itemKey(strategy.strategyId), '#strategy = :old AND tokenHash = :hash'),
            update(this.tokenItemKey(previous.tokenHash), '#strategy = :old'),
          ],
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof Error && error.name === 'TransactionCanceledException') return false;
      throw error;
    }
  }
}
