/**
 * The day's option chains read from the instruments' copy (chain-items.ts; docs/reference/options.md): the
 * `OptionChains` of option-pick.ts. Only today's items (India's calendar day) are read; a day whose refresh wrote no
 * chain for the underlying answers `[]` and `undefined`. A read that fails (DynamoDB unreachable or past the
 * deadline, an item that does not read) throws GATEWAY_BUSY with outcome `not_executed`: retry in a moment; it is
 * never answered as an empty chain.
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';

import { GetItemCommand } from '../../base/aws/dynamo.js';
import { GatewayBusyError } from '../../base/contract/errors.js';
import { indiaDay } from '../../base/schemas/india-time.js';
import { chainExpiryKey, chainIndexKey, chainOfItem, expiriesOfItem } from './chain-items.js';
import type { InstrumentCopy } from './copy.js';
import type { OptionChains } from './option-pick.js';

/** What a caller is told when the chain cannot be read now. */
const unreadable = (what: string, error: unknown): GatewayBusyError =>
  new GatewayBusyError(
    `The day's option chain (${what}) could not be read from the instruments' copy: ${error instanceof Error ? error.message : String(error)}. Nothing was done; retry in a moment.`,
    { outcome: 'not_executed', details: { retryAfterSeconds: 1 }, cause: error },
  );

const read = async (
  copy: InstrumentCopy,
  key: Record<string, AttributeValue>,
  deadline: number,
): Promise<Record<string, AttributeValue> | undefined> => {
  const left = deadline - Date.now();
  if (left <= 0) throw new Error('no time was left before the deadline');
  const reply = await copy.client.send(new GetItemCommand({ TableName: copy.options.tableName, Key: key }), {
    abortSignal: AbortSignal.timeout(left),
  });
  return reply.Item;
};

export const chainsFromCopy = (copy: InstrumentCopy, now: () => number = Date.now): OptionChains => ({
  async expiries(exch, underlying, deadline) {
    try {
      return expiriesOfItem(await read(copy, chainIndexKey(exch, underlying), deadline), indiaDay(now())) ?? [];
    } catch (error) {
      throw unreadable(`${exch}:${underlying} expiries`, error);
    }
  },
  async chain(exch, underlying, expiry, deadline) {
    try {
      return chainOfItem(await read(copy, chainExpiryKey(exch, underlying, expiry), deadline), indiaDay(now()));
    } catch (error) {
      throw unreadable(`${exch}:${underlying} ${expiry}`, error);
    }
  },
});
