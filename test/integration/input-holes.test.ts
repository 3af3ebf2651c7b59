/**
 * Holes in the input contract found by a hostile review, through the real handlers of the local stack (the
 * emulator over 127.0.0.1, the local Secrets Manager, idempotency on dynalite): each is refused before anything
 * reaches the broker, or handled as the request rules say.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { createLogger } from '../../functions/base/runtime/logger.js';
import { placeGttOrder, placeOcoOrder } from '../../functions/orders/operations.js';
import { type LocalStack, startLocalStack } from '../../local/run-local.js';
import { type EmulatorControl, emulatorControl } from '../support/emulator-control.js';
import { invokeDirect } from '../support/events.js';
import { redirectLogger } from '../support/logs.js';
import { SAMPLE_ORDER } from '../support/sample-order.js';

let stack: LocalStack;
let control: EmulatorControl;
const lines: string[] = [];

const order = { ...SAMPLE_ORDER, prc: '100', d: '99' };
const oco = (stopLossOrder: Record<string, unknown>, targetOrder: Record<string, unknown> = {}) => ({
  exch: 'NSE',
  tsym: 'TCS-EQ',
  target: { trigger: '4200', order: { trantype: 'S', prctyp: 'LMT', qty: 1, prc: '4195', prd: 'C', ...targetOrder } },
  stopLoss: {
    trigger: '3800',
    order: { trantype: 'S', prctyp: 'SL-LMT', qty: 1, prc: '3795', trgprc: '3800', prd: 'C', ...stopLossOrder },
  },
});

const call = async (path: string, body: string | Buffer, headers: Record<string, string> = {}) => {
  const res = await fetch(`${stack.api.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });
  return {
    status: res.status,
    body: (await res.json()) as {
      error?: { code: string; message: string; details?: { field: string; message: string }[] };
      [k: string]: unknown;
    },
  };
};
/**
 * Calls to the broker other than the reads of the exchange's rules (SearchScrip, GetQuotes, GetSecurityInfo) every
 * order makes before anything is sent.
 */
const RULE_READS = ['SearchScrip', 'GetQuotes', 'GetSecurityInfo'];
const brokerCalls = async () =>
  (await control.requests()).filter((r) => r.operation !== null && !RULE_READS.includes(r.operation));

beforeAll(async () => {
  // The function set's own logger (masked lines), writing into this test.
  const logger = createLogger({ serviceName: 'input-holes', logLevel: 'INFO' });
  const write = (line: string) => lines.push(line);
  redirectLogger(logger, write);
  stack = await startLocalStack({ brokerTimeoutMs: 2_000, gateway: { logger } });
  control = emulatorControl(stack.emulator.url);
});
afterAll(async () => {
  await stack?.close();
});
beforeEach(async () => {
  await control.reset();
  lines.length = 0;
});

describe('an EventBridge-shaped direct payload', () => {
  const envelope = {
    version: '0',
    id: 'e-1',
    'detail-type': 'Place',
    source: 'my.scheduler',
    account: '1',
    time: '2026-11-23T08:00:00Z',
    region: 'ap-south-1',
    resources: [],
  };
  const place = (payload: unknown) => invokeDirect(stack.handlers.get('PlaceGTTOrder')!, placeGttOrder, payload);

  it('a top-level dryRun or idempotencyKey beside detail is refused, nothing is placed', async () => {
    for (const extra of [{ dryRun: true }, { idempotencyKey: 'eb-1' }, { dry_run: true }]) {
      const reply = await place({ ...envelope, detail: order, ...extra });
      const name = Object.keys(extra)[0]!;
      expect(reply).toMatchObject({
        ok: false,
        error: {
          code: 'VALIDATION_FAILED',
          details: [{ field: name, message: expect.stringMatching(/inside detail/) }],
        },
      });
    }
    expect(await brokerCalls()).toEqual([]);
    expect(await control.orders(stack.emulator.uid)).toEqual([]);
  });

  it('the options inside detail are honoured', async () => {
    const dry = await place({ ...envelope, detail: { ...order, dryRun: true, idempotencyKey: 'eb-2' } });
    expect(dry).toMatchObject({ ok: true, result: { dryRun: true } });
    expect(await brokerCalls()).toEqual([]);
  });
});

describe('a body that is not valid UTF-8', () => {
  it('is refused with 400 and nothing is sent (no U+FFFD in a symbol)', async () => {
    const text = JSON.stringify({ ...order, tsym: 'M&M-EQ\u0000' }).replace('\\u0000', '');
    const bytes = Buffer.from(text, 'utf8');
    // M&M-EQ followed by a lone continuation byte and a truncated two-byte sequence.
    const at = bytes.indexOf('M&M-EQ') + 'M&M-EQ'.length;
    const bad = Buffer.concat([bytes.subarray(0, at), Buffer.from([0x80, 0xc3]), bytes.subarray(at)]);
    const reply = await call('/gtt-orders', bad, { 'idempotency-key': 'utf8-1' });
    expect(reply.status).toBe(400);
    expect(reply.body.error).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: expect.stringMatching(/not valid UTF-8/),
    });
    expect(await brokerCalls()).toEqual([]);
    // Valid UTF-8 (a real multi-byte symbol is still judged by the symbol rules, not refused as bytes).
    const ok = await call('/gtt-orders', Buffer.from(JSON.stringify(order), 'utf8'), { 'idempotency-key': 'utf8-2' });
    expect(ok.status).toBe(201);
  });
});

describe('OCO legs are validated by their order type', () => {
  it('an SL-LMT stop-loss without trgprc, or an LMT leg with one: 400 naming the field, nothing sent', async () => {
    const cases: [unknown, string][] = [
      [oco({ trgprc: undefined }), 'stopLoss.order.trgprc'],
      [oco({ prctyp: 'SL-MKT', prc: undefined, trgprc: undefined }), 'stopLoss.order.trgprc'],
      [oco({}, { trgprc: '4200' }), 'target.order.trgprc'],
      [oco({ prctyp: 'LMT', trgprc: '3800' }), 'stopLoss.order.trgprc'],
    ];
    for (const [body, field] of cases) {
      const reply = await call('/gtt-orders/oco', JSON.stringify(body), {
        'idempotency-key': `oco-${field}-${Math.random()}`,
      });
      expect(reply.status, field).toBe(400);
      expect(reply.body.error?.details).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
    }
    expect(await brokerCalls()).toEqual([]);
    const placed = await call('/gtt-orders/oco', JSON.stringify(oco({})), { 'idempotency-key': 'oco-ok' });
    expect(placed.status).toBe(201);
    expect(
      await invokeDirect(stack.handlers.get('PlaceOCOOrder')!, placeOcoOrder, { ...oco({}), dryRun: true }),
    ).toMatchObject({ ok: true });
  });
});

describe('an idempotent retry that spells a number differently', () => {
  it('"100.0" after "100" (and 99 after "99.00") is the same request: replayed, one order', async () => {
    const first = await call('/gtt-orders', JSON.stringify(order), { 'idempotency-key': 'spelling-1' });
    expect(first.status).toBe(201);
    const again = await call('/gtt-orders', JSON.stringify({ ...order, prc: '100.0', d: 99, qty: '1' }), {
      'idempotency-key': 'spelling-1',
    });
    expect(again.status).toBe(201);
    expect(again.body).toMatchObject({ al_id: first.body.al_id, idempotency: { replayed: true } });
    // A different price is still a different request.
    const other = await call('/gtt-orders', JSON.stringify({ ...order, prc: '100.5' }), {
      'idempotency-key': 'spelling-1',
    });
    expect(other.body.error?.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect((await brokerCalls()).filter((r) => r.operation === 'PlaceGTTOrder')).toHaveLength(1);
  });
});

describe('user input equal to the access token', () => {
  it('a tag or tsym equal to the token: 400 that does not say why, nothing sent, the token in no reply or log line', async () => {
    const token = stack.emulator.token;
    for (const body of [
      { ...order, tag: token },
      { ...order, tsym: token },
    ]) {
      for (const query of ['', '?dryRun=true']) {
        const reply = await call(`/gtt-orders${query}`, JSON.stringify(body), {
          'idempotency-key': `tok-${Math.random()}`,
        });
        expect(reply.status).toBe(400);
        expect(reply.body.error?.code).toBe('VALIDATION_FAILED');
        expect(JSON.stringify(reply.body)).not.toMatch(/token|secret/i);
        expect(JSON.stringify(reply.body)).not.toContain(token);
      }
    }
    expect(await brokerCalls()).toEqual([]);
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(line).not.toContain(token);
  });
});
