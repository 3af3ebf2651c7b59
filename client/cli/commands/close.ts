/**
 * `gtt close EXCH:TSYM` (`POST /positions/close`, docs/how-to/close-a-position.md): a position closed now by one
 * protected limit order of the side that closes it, priced by the gateway from the last price; `--qty` closes part
 * of it, `--product` names its product (I, MIS, unless given). The command makes the Idempotency-Key itself (unless
 * `--key` gives one) and prints it, so a retry after a timeout sends the same key and the gateway answers the order
 * it placed, never a second.
 */
import { randomUUID } from 'node:crypto';

import type { CallInput, OperationResult } from '../../types.js';
import { command, may, PROGRAM } from '../command.js';

type CloseBody = NonNullable<CallInput<'ClosePosition'>['body']>;
type Closed = OperationResult<'ClosePosition'> & { key?: string };

const PRODUCTS: Readonly<Record<string, string>> = { I: 'I', MIS: 'I', C: 'C', CNC: 'C', M: 'M', NRML: 'M' };

const closeText = (r: Closed): string => {
  const side = r.trantype === 'S' ? 'sell' : 'buy';
  const what = `${r.netQty > 0 ? 'long' : 'short'} of ${Math.abs(r.netQty)}`;
  const outcome =
    r.outcome === 'replayed'
      ? ' — replayed: an earlier request with this key placed it, nothing new was sent'
      : r.outcome === 'adopted'
        ? " — found in the broker's order book: an earlier attempt placed it"
        : '';
  const retry = r.key ? `\nidempotency key ${r.key}: after a timeout, \`${PROGRAM} close ... --key ${r.key}\`` : '';
  return `${side} ${r.qty} ${r.exch}:${r.tsym} (product ${r.prd}) at limit ${r.prc} (last ${r.lastPrice}) to close the ${what}: order ${r.norenordno}${outcome}${retry}`;
};

export const close = command({
  name: 'close',
  args: ['position'],
  flags: [may('product', 'I'), may('qty', 'N'), may('key', 'K')],
  dryRun: true,
  summary:
    'close a position now (square off): one protected limit order of the side that closes it (a sell of a long, ' +
    'a buy of a short) from the last price; <position> is EXCH:TSYM, --qty part of it (default all), --product its ' +
    'product (I unless given); refused past the position or its pending exits; prints its key for a retry (--key)',
  input: (f, args): CloseBody => {
    const [exch, ...rest] = (args[0] ?? '').split(':');
    const tsym = rest.join(':');
    if (!exch || !tsym) f.problem(`<position> must be EXCH:TSYM, e.g. NSE:INFY-EQ, got ${JSON.stringify(args[0])}`);
    const given = f.str('product')?.trim().toUpperCase() ?? 'I';
    const prd = PRODUCTS[given];
    if (!prd) f.problem(`--product must be I (MIS), C (CNC) or M (NRML), got ${JSON.stringify(f.str('product'))}`);
    const qty = f.positiveInt('qty');
    return {
      exch: (exch ?? '').toUpperCase() as CloseBody['exch'],
      tsym,
      prd: prd ?? given,
      ...(qty === undefined ? {} : { qty }),
    };
  },
  run: async ({ client, orderOptions }, body): Promise<Closed> => {
    const key = orderOptions.dryRun ? undefined : (orderOptions.idempotencyKey ?? `close-${randomUUID()}`);
    const result = (await client.call(
      'ClosePosition',
      { body },
      { ...orderOptions, ...(key ? { idempotencyKey: key } : {}) },
    )) as OperationResult<'ClosePosition'>;
    return { ...result, ...(key ? { key } : {}) };
  },
  render: closeText,
});
