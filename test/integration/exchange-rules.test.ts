/**
 * The exchange's rules before anything is sent (functions/orders/gateway/exchange-rules.ts), end to end over HTTP against
 * the emulator: a price off the instrument's tick and an NFO quantity off its lot are refused with the field, the rule
 * and the nearest valid values, on a place, an OCO leg, a modify, a dry run and a plan, and nothing is sent; a symbol
 * the broker does not list is refused naming the closest listed ones (`MM-EQ`: `M&M-EQ`); a SearchScrip that fails refuses the order
 * rather than sending it unchecked.
 */
import { describe, expect, it } from 'vitest';

import { indexContract } from '../../emulator/state/symbols.js';
import type { LocalStack } from '../../local/run-local.js';
import type { EmulatorControl } from '../support/emulator-control.js';
import { useLocalStack } from '../support/local-stack-fixture.js';
import { HIGH_ORDER_RATE } from '../support/order-rate.js';
import { SAMPLE_ORDER } from '../support/sample-order.js';

let stack: LocalStack;
let control: EmulatorControl;
let keys = 0;

const call = async (method: string, path: string, body?: unknown) => {
  const res = await fetch(`${stack.api.url}${path}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      'Idempotency-Key': `rules-${Date.now()}-${++keys}`,
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any -- test assertions on arbitrary JSON
};
const sent = async (operation: string) => (await control.requests()).filter((r) => r.operation === operation);

useLocalStack(
  // Index futures run to crores: the exchange's rules are under test here, not the default order-value guardrail.
  () => ({ settings: { ...HIGH_ORDER_RATE, GUARDRAIL_MAX_ORDER_VALUE: 'off' } }),
  (s, c) => {
    stack = s;
    control = c;
  },
);

const OCO = {
  exch: 'NSE',
  tsym: 'INFY-EQ',
  target: { trigger: '1600', order: { trantype: 'S', prctyp: 'LMT', qty: 2, prc: '1600.02', prd: 'C' } },
  stopLoss: { trigger: '1400', order: { trantype: 'S', prctyp: 'LMT', qty: 2, prc: '1390', prd: 'C' } },
};

describe("the exchange's rules before anything is sent", () => {
  it('a place off the 0.05 tick: refused with the nearest valid prices, nothing sent; the dry run says the same', async () => {
    await control.clearRequests();
    const refused = await call('POST', '/gtt-orders', { ...SAMPLE_ORDER, prc: '1500.03' });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({
      code: 'VALIDATION_FAILED',
      outcome: 'not_executed',
      details: [{ field: 'prc', message: "1500.03 is off the instrument's 0.05 tick: 1500.00 or 1500.05" }],
    });
    expect(refused.body.error.message).toContain('1500.00 or 1500.05');
    const dry = await call('POST', '/gtt-orders?dryRun=true', { ...SAMPLE_ORDER, d: '1490.01' });
    expect(dry.status).toBe(400);
    expect(dry.body.error.details).toEqual([
      { field: 'd', message: "1490.01 is off the instrument's 0.05 tick: 1490.00 or 1490.05" },
    ]);
    expect(await sent('PlaceGTTOrder')).toHaveLength(0);
  });

  it("an OCO leg off the tick names the leg's field", async () => {
    await control.clearRequests();
    const refused = await call('POST', '/gtt-orders/oco', OCO);
    expect(refused.status).toBe(400);
    expect(refused.body.error.details).toEqual([
      { field: 'target.order.prc', message: "1600.02 is off the instrument's 0.05 tick: 1600.00 or 1600.05" },
    ]);
    expect(await sent('PlaceOCOOrder')).toHaveLength(0);
  });

  it('a modify off the tick is refused and the pending order stays as it was', async () => {
    const placed = await call('POST', '/gtt-orders', SAMPLE_ORDER);
    expect(placed.status, JSON.stringify(placed.body)).toBe(201);
    await control.clearRequests();
    const refused = await call('PUT', `/gtt-orders/${placed.body.al_id as string}`, {
      ...SAMPLE_ORDER,
      prc: '1499.99',
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details).toEqual([
      { field: 'prc', message: "1499.99 is off the instrument's 0.05 tick: 1499.95 or 1500.00" },
    ]);
    expect(await sent('ModifyGTTOrder')).toHaveLength(0);
  });

  it('an NFO index future off its lot is refused naming the lot and the nearest quantities', async () => {
    await control.clearRequests();
    const tsym = indexContract('NIFTY', new Date(Date.now() + 7 * 86_400_000), 'F');
    const order = { ...SAMPLE_ORDER, exch: 'NFO', tsym, prd: 'M', qty: 50, prc: '24000', d: '23990' };
    const refused = await call('POST', '/gtt-orders', order);
    expect(refused.status).toBe(400);
    expect(refused.body.error.details).toEqual([
      { field: 'qty', message: `${tsym} trades in lots of 65: 50 is not a multiple; 65` },
    ]);
    expect(await sent('PlaceGTTOrder')).toHaveLength(0);
    expect((await call('POST', '/gtt-orders', { ...order, qty: 130 })).status).toBe(201);
  });

  it("a plan's prices off the tick are refused by the same check", async () => {
    await control.clearRequests();
    const refused = await call('POST', '/plans', {
      kind: 'bracket',
      entry: { ...SAMPLE_ORDER, tsym: 'TCS-EQ', qty: 2 },
      target: { trigger: '1600.01', price: '1600' },
      stopLoss: { trigger: '1400', price: '1400' },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details).toEqual(
      expect.arrayContaining([
        { field: 'target.trigger', message: "1600.01 is off the instrument's 0.05 tick: 1600.00 or 1600.05" },
      ]),
    );
    expect(await sent('PlaceGTTOrder')).toHaveLength(0);
  });

  it("a plan's NFO quantity off its lot is refused at creation", async () => {
    await control.clearRequests();
    const tsym = indexContract('BANKNIFTY', new Date(Date.now() + 7 * 86_400_000), 'F');
    const refused = await call('POST', '/plans', {
      kind: 'bracket',
      entry: { ...SAMPLE_ORDER, exch: 'NFO', tsym, prd: 'M', qty: 45, prc: '52000', d: '51990' },
      target: { trigger: '53000', price: '53000' },
      stopLoss: { trigger: '51000', price: '51000' },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details).toEqual([
      { field: 'entry.qty', message: `${tsym} trades in lots of 30: 45 is not a multiple; 30 or 60` },
    ]);
    expect(await sent('PlaceGTTOrder')).toHaveLength(0);
  });

  it('a wrong symbol names the closest listed ones (SearchScrip): did you mean RELIANCE-EQ?', async () => {
    await control.clearRequests();
    const refused = await call('POST', '/gtt-orders', { ...SAMPLE_ORDER, tsym: 'RELIANCE' });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toContain('Did you mean RELIANCE-EQ?');
    expect(refused.body.error.details).toEqual([
      { field: 'tsym', message: 'RELIANCE is not listed on NSE; did you mean RELIANCE-EQ?' },
    ]);
    expect(await sent('PlaceGTTOrder')).toHaveLength(0);
  });

  it('MM-EQ, M&M without its &, gets M&M-EQ suggested as M&M does', async () => {
    await control.clearRequests();
    for (const tsym of ['MM-EQ', 'M&M']) {
      const refused = await call('POST', '/gtt-orders', { ...SAMPLE_ORDER, tsym });
      expect(refused.status).toBe(400);
      expect(refused.body.error.details).toEqual([
        { field: 'tsym', message: `${tsym} is not listed on NSE; did you mean M&M-EQ?` },
      ]);
    }
    expect(await sent('PlaceGTTOrder')).toHaveLength(0);
  });

  it('a symbol the broker refuses at placement (Invalid Trading Symbol) gets the closest listed ones too', async () => {
    await control.fault({
      operation: 'PlaceGTTOrder',
      kind: 'notOk',
      message: 'Invalid Input : Invalid Trading Symbol',
    });
    try {
      const refused = await call('POST', '/gtt-orders', { ...SAMPLE_ORDER, tsym: 'BANKBEES-EQ', prc: '500', d: '490' });
      expect(refused.status).toBe(422);
      expect(refused.body.error).toMatchObject({
        code: 'BROKER_REJECTED',
        brokerMessage: 'Invalid Input : Invalid Trading Symbol',
      });
      expect(refused.body.error.message).toMatch(/Did you mean [A-Z]+-EQ(, [A-Z]+-EQ)*\?$/);
    } finally {
      await control.clearFaults();
    }
  });

  it('when SearchScrip fails the order is refused, retryable, not sent unchecked', async () => {
    await control.clearRequests();
    await control.fault({ operation: 'SearchScrip', kind: 'http5xx' });
    try {
      const refused = await call('POST', '/gtt-orders', { ...SAMPLE_ORDER, tsym: 'WIPRO-EQ' });
      expect(refused.status).toBe(502);
      expect(refused.body.error).toMatchObject({ code: 'BROKER_UNAVAILABLE', outcome: 'not_executed' });
      expect(refused.body.error.message).toContain('could not be read (SearchScrip)');
      expect(await sent('PlaceGTTOrder')).toHaveLength(0);
    } finally {
      await control.clearFaults();
    }
  });
});
