/**
 * The login attempts of the OAuth flow, in one DynamoDB table (partition key `state`, TTL on `expiresAt`):
 *
 * - `<state>`: a value the start route issued, consumed at most once by a callback that carries it (a conditional
 *   delete), so a replayed or forged `state` writes nothing;
 * - `#pending-login`: the latest login started, for a broker that redirects with `code` only (the live brokers are
 *   seen to drop `state`). A callback without `state` takes an attempt on it (a conditional update counting every
 *   callback in `attempts`, with no cap: a cap on the login would let anyone's junk callbacks use it up before the
 *   trader's redirect arrives); only a successful exchange ends it (a conditional delete that checks it is still the
 *   same login), or the window's end;
 * - `source#<sha256 of the login and the caller's address>`: the callbacks one source address sent for one login,
 *   at most `MAX_ATTEMPTS_PER_SOURCE`, so a flood from one address costs a bounded number of broker calls while the
 *   trader's redirect, from the trader's own browser, still goes through (the address is not stored, only a hash);
 * - `code#<sha256 of the code>`: a code already exchanged, so a code is exchanged at most once whatever the path.
 *
 * Every consume is a conditional write, so two callbacks racing for one login cannot both proceed.
 */
import { createHash, randomBytes } from 'node:crypto';

import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';

import {
  DeleteItemCommand,
  type DynamoClient,
  dynamoDbClient,
  isConditionFailure,
  PutItemCommand,
  UpdateItemCommand,
} from '../base/aws/dynamo.js';

/**
 * How many callbacks without `state` one source address may send for one pending login (each costs one exchange
 * call at the broker): past this, that address is refused without a broker call, and every other address (the
 * trader's browser) is still heard. A new start is a new login, with fresh counts.
 */
export const MAX_ATTEMPTS_PER_SOURCE = 5;

/**
 * A callback's hold on the pending login: which login (`ref`), how many callbacks it has had with this one
 * (`attempt`) and how many came from this callback's address (`sourceAttempt`).
 */
export type PendingAttempt =
  | { ok: true; ref: string; attempt: number; sourceAttempt: number }
  | { ok: false; reason: 'none' }
  | { ok: false; reason: 'source-exhausted'; attempt: number };

const PENDING_LOGIN = '#pending-login';
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const codeKey = (code: string) => `code#${sha256(code)}`;
const sourceKey = (ref: string, source: string) => `source#${sha256(`${ref}\n${source}`)}`;

export class OAuthStateStore {
  private readonly client: DynamoClient;

  constructor(
    private readonly tableName: string,
    /** The login window: how long a started login may wait for the broker's redirect. */
    private readonly ttlSeconds: number,
    endpoint?: string,
  ) {
    this.client = dynamoDbClient(endpoint);
  }

  /** A fresh unguessable value (256 bits), valid for the window; it also becomes the pending login. */
  async issue(now = Date.now()): Promise<{ state: string; expiresAt: number }> {
    const state = randomBytes(32).toString('base64url');
    const expiresAt = Math.floor(now / 1000) + this.ttlSeconds;
    await this.client.send(
      new PutItemCommand({
        TableName: this.tableName,
        Item: marshall({ state, expiresAt }),
        ConditionExpression: 'attribute_not_exists(#s)',
        ExpressionAttributeNames: { '#s': 'state' },
      }),
    );
    // The latest start wins: a redirect without `state` completes the login the trader started last.
    await this.client.send(
      new PutItemCommand({
        TableName: this.tableName,
        Item: marshall({ state: PENDING_LOGIN, ref: state, expiresAt }),
      }),
    );
    return { state, expiresAt };
  }

  /** True once for a value this store issued and that has not expired; false for unknown, used or expired ones. */
  async consume(state: string, now = Date.now()): Promise<boolean> {
    if (!(await this.deleteIfLive({ state }, now))) return false;
    // This login is complete: a later redirect without `state` must not complete it again.
    await this.deleteIfLive({ state: PENDING_LOGIN }, now, state);
    return true;
  }

  /**
   * Takes one attempt on the latest login started within the window and not completed, for a callback from
   * `source` (its address): counts it on the login (conditional: live; no cap), then on the source for this login
   * (conditional: under `MAX_ATTEMPTS_PER_SOURCE`). Nothing ends here; `completePending` does, after a successful
   * exchange.
   */
  async attemptPending(source: string, now = Date.now()): Promise<PendingAttempt> {
    const seconds = Math.floor(now / 1000);
    let login: Record<string, unknown> | undefined;
    try {
      const reply = await this.client.send(
        new UpdateItemCommand({
          TableName: this.tableName,
          Key: marshall({ state: PENDING_LOGIN }),
          UpdateExpression: 'SET attempts = if_not_exists(attempts, :zero) + :one',
          ConditionExpression: 'attribute_exists(#s) AND expiresAt > :now',
          ExpressionAttributeNames: { '#s': 'state' },
          ExpressionAttributeValues: marshall({ ':zero': 0, ':one': 1, ':now': seconds }),
          ReturnValues: 'ALL_NEW',
        }),
      );
      login = reply.Attributes && unmarshall(reply.Attributes);
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      return { ok: false, reason: 'none' };
    }
    const ref = typeof login?.ref === 'string' ? login.ref : '';
    const attempt = typeof login?.attempts === 'number' ? login.attempts : 1;
    const expiresAt = typeof login?.expiresAt === 'number' ? login.expiresAt : seconds + this.ttlSeconds;
    try {
      const counted = await this.client.send(
        new UpdateItemCommand({
          TableName: this.tableName,
          Key: marshall({ state: sourceKey(ref, source) }),
          // It lives as long as the login it counts for.
          UpdateExpression: 'SET attempts = if_not_exists(attempts, :zero) + :one, expiresAt = :exp',
          ConditionExpression: 'attribute_not_exists(attempts) OR attempts < :max',
          ExpressionAttributeValues: marshall({
            ':zero': 0,
            ':one': 1,
            ':exp': expiresAt,
            ':max': MAX_ATTEMPTS_PER_SOURCE,
          }),
          ReturnValues: 'UPDATED_NEW',
        }),
      );
      const sourceAttempt = counted.Attributes && unmarshall(counted.Attributes).attempts;
      return { ok: true, ref, attempt, sourceAttempt: typeof sourceAttempt === 'number' ? sourceAttempt : 1 };
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      return { ok: false, reason: 'source-exhausted', attempt };
    }
  }

  /**
   * Ends the pending login `ref` after a successful exchange: true once (a conditional delete: still live and still
   * that login), false when another callback completed it first or a newer login replaced it.
   */
  async completePending(ref: string, now = Date.now()): Promise<boolean> {
    if (!(await this.deleteIfLive({ state: PENDING_LOGIN }, now, ref))) return false;
    // Its `state` must not complete it again either.
    if (ref !== '')
      await this.client.send(new DeleteItemCommand({ TableName: this.tableName, Key: marshall({ state: ref }) }));
    return true;
  }

  /** True the first time a code is seen (it is remembered for the window); false for a code seen before. */
  async claimCode(code: string, now = Date.now()): Promise<boolean> {
    try {
      await this.client.send(
        new PutItemCommand({
          TableName: this.tableName,
          Item: marshall({ state: codeKey(code), expiresAt: Math.floor(now / 1000) + this.ttlSeconds }),
          ConditionExpression: 'attribute_not_exists(#s)',
          ExpressionAttributeNames: { '#s': 'state' },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  /**
   * Deletes an item that exists and has not expired (DynamoDB's TTL deletes late, so the expiry is checked here),
   * optionally only while it points at `ref`. Returns the deleted item's `ref` (or true), or false.
   */
  private async deleteIfLive(key: { state: string }, now: number, ref?: string): Promise<string | boolean> {
    try {
      const reply = await this.client.send(
        new DeleteItemCommand({
          TableName: this.tableName,
          Key: marshall(key),
          ConditionExpression: `attribute_exists(#s) AND expiresAt > :now${ref === undefined ? '' : ' AND #r = :ref'}`,
          ExpressionAttributeNames: { '#s': 'state', ...(ref === undefined ? {} : { '#r': 'ref' }) },
          ExpressionAttributeValues: marshall({
            ':now': Math.floor(now / 1000),
            ...(ref === undefined ? {} : { ':ref': ref }),
          }),
          ReturnValues: 'ALL_OLD',
        }),
      );
      const old = reply.Attributes?.ref?.S;
      return typeof old === 'string' ? old : true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }
}
