/**
 * The market's day-to-day rules before anything is sent (functions/orders/safety/market-rules.ts), end to end over HTTP
 * against the emulator: a limit price farther from its trigger than today's band is wide is refused naming the band
 * and the nearest valid price (place, modify, every OCO leg, a plan), a trigger beyond today's band is not; a
 * quantity above the freeze quantity is refused saying to split it; a dry run lists the rules checked with their
 * values (or that the broker gives none); a GetQuotes that fails refuses the order, not_executed. The emulator
 * rejects a fired order outside the band of that moment (its own contract test: test/contract/emulator-symbols.test.ts).
 * Each case uses a symbol of its own: the gateway keeps a band 5 minutes per container.
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
      ...(method === 'GET' ? {} : { 'Idempotency-Key': `market-${Date.now()}-${++keys}` }),
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

const nifty = () => indexContract('NIFTY', new Date(Date.now() + 7 * 86_400_000), 'F');

describe("today's price band", () => {
  it('a limit too far from its trigger is refused naming the band and the nearest valid price; nothing sent', async () => {
    await control.ltp('NSE', 'INFY-EQ', 1500, 1500);
    await control.clearRequests();
    const refused = await call('POST', '/gtt-orders', { ...SAMPLE_ORDER, tsym: 'INFY-EQ', d: '1500', prc: '1800' });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({
      code: 'VALIDATION_FAILED',
      outcome: 'not_executed',
      details: [
        {
          field: 'prc',
          message:
            "limit 1800.00 is 20% from its trigger 1500.00; NSE:INFY-EQ's band today is ±10% (1350.00–1650.00): use at most 1650.00",
        },
      ],
    });
    const low = await call('POST', '/gtt-orders', { ...SAMPLE_ORDER, tsym: 'INFY-EQ', d: '1000', prc: '850' });
    expect(low.body.error.details[0].message).toContain('use at least 900.00');
    expect(await sent('PlaceGTTOrder')).toHaveLength(0);
    // At the edge of the band's width: placed.
    expect(
      (await call('POST', '/gtt-orders', { ...SAMPLE_ORDER, tsym: 'INFY-EQ', d: '1500', prc: '1650' })).status,
    ).toBe(201);
  });

  it("a trigger beyond today's band is not refused: a GTT fires on a later day", async () => {
    await control.ltp('NSE', 'WIPRO-EQ', 1500, 1500);
    const placed = await call('POST', '/gtt-orders', { ...SAMPLE_ORDER, tsym: 'WIPRO-EQ', d: '1000', prc: '1005' });
    expect(placed.status, JSON.stringify(placed.body)).toBe(201);
  });

  it('a modify and every OCO leg are checked the same way', async () => {
    await control.ltp('NSE', 'TCS-EQ', 1500, 1500);
    const placed = await call('POST', '/gtt-orders', { ...SAMPLE_ORDER, tsym: 'TCS-EQ' });
    expect(placed.status, JSON.stringify(placed.body)).toBe(201);
    await control.clearRequests();
    const modify = await call('PUT', `/gtt-orders/${placed.body.al_id as string}`, {
      ...SAMPLE_ORDER,
      tsym: 'TCS-EQ',
      prc: '1700',
    });
    expect(modify.status).toBe(400);
    expect(modify.body.error.details).toEqual([{ field: 'prc', message: expect.stringContaining('use at most') }]);
    const oco = await call('POST', '/gtt-orders/oco', {
      exch: 'NSE',
      tsym: 'TCS-EQ',
      target: { trigger: '1600', order: { trantype: 'S', prctyp: 'LMT', qty: 1, prc: '1900', prd: 'C' } },
      stopLoss: { trigger: '1400', order: { trantype: 'S', prctyp: 'LMT', qty: 1, prc: '1100', prd: 'C' } },
    });
    expect(oco.status).toBe(400);
    expect(oco.body.error.details.map((d: { field: string }) => d.field)).toEqual([
      'target.order.prc',
      'stopLoss.order.prc',
    ]);
    expect(oco.body.error.details[1].message).toContain('use at least 1260.00');
    expect([...(await sent('ModifyGTTOrder')), ...(await sent('PlaceOCOOrder'))]).toHaveLength(0);
  });

  it("a plan's exit beyond the band's width is refused at creation, nothing placed", async () => {
    await control.ltp('NSE', 'SBIN-EQ', 1500, 1500);
    await control.clearRequests();
    const refused = await call('POST', '/plans', {
      kind: 'bracket',
      entry: { ...SAMPLE_ORDER, tsym: 'SBIN-EQ', qty: 2 },
      target: { trigger: '1600', price: '1600' },
      stopLoss: { trigger: '1400', price: '1200' },
    });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body.error)).toContain('use at least 1260.00');
    expect(await sent('PlaceGTTOrder')).toHaveLength(0);
  });

  it('when GetQuotes fails the order is refused, retryable, not sent unchecked', async () => {
    await control.clearRequests();
    await control.fault({ operation: 'GetQuotes', kind: 'http5xx' });
    try {
      const refused = await call('POST', '/gtt-orders', { ...SAMPLE_ORDER, tsym: 'HCLTECH-EQ' });
      expect(refused.status).toBe(502);
      expect(refused.body.error).toMatchObject({ code: 'BROKER_UNAVAILABLE', outcome: 'not_executed' });
      expect(refused.body.error.message).toContain('could not be read (GetQuotes)');
      expect(await sent('PlaceGTTOrder')).toHaveLength(0);
    } finally {
      await control.clearFaults();
    }
  });

  it('the emulator rejects a fired order whose limit lies outside the band of that moment', async () => {
    // No previous close yet: no band given, the GTT is placed; then the day's band is set and the GTT fires.
    const placed = await call('POST', '/gtt-orders', { ...SAMPLE_ORDER, tsym: 'ONGC-EQ', d: '1490', prc: '1500' });
    expect(placed.status, JSON.stringify(placed.body)).toBe(201);
    const { fired } = await control.ltp('NSE', 'ONGC-EQ', 1300, 1300);
    expect(fired).toEqual([expect.objectContaining({ al_id: placed.body.al_id, status: 'REJECTED' })]);
    const book = await call('GET', '/orders');
    expect(JSON.stringify(book.body)).toContain("Order price 1500 is outside the day's price band 1170.00 - 1430.00");
  });
});

describe('freeze quantities', () => {
  it('a quantity above the freeze is refused saying to split it; at the freeze it is placed', async () => {
    const tsym = nifty();
    await control.clearRequests();
    const order = { ...SAMPLE_ORDER, exch: 'NFO', tsym, prd: 'M', qty: 1820, prc: '24000', d: '23990' };
    const refused = await call('POST', '/gtt-orders', order);
    expect(refused.status).toBe(400);
    expect(refused.body.error.details).toEqual([
      {
        field: 'qty',
        message: `1820 is above NFO:${tsym}'s freeze quantity of 1800, which the exchange refuses in one order: split it into orders of at most 1800 (several GTTs)`,
      },
    ]);
    expect(await sent('PlaceGTTOrder')).toHaveLength(0);
    expect((await sent('GetSecurityInfo'))[0]?.jData).toMatchObject({ exch: 'NFO', token: expect.any(String) });
    expect((await call('POST', '/gtt-orders', { ...order, qty: 1755 })).status).toBe(201);
  });
});

describe('the dry run lists the rules checked', () => {
  it('with a band and a freeze where the broker gives them, "not given by the broker" where not', async () => {
    await control.ltp('NSE', 'ITC-EQ', 1500, 1500);
    const equity = await call('POST', '/gtt-orders?dryRun=true', { ...SAMPLE_ORDER, tsym: 'ITC-EQ' });
    expect(equity.status, JSON.stringify(equity.body)).toBe(200);
    expect(equity.body.exchangeRules).toEqual({
      instrument: 'NSE:ITC-EQ',
      tick: '0.05',
      lot: 1,
      precision: 2,
      band: { lc: '1350.00', uc: '1650.00', width: '±10%' },
      freeze: 'not given by the broker',
      // Read from the broker now (the copy had nothing for today): where from, and of which day.
      source: {
        day: new Date(Date.now() + 5.5 * 3_600_000).toISOString().slice(0, 10),
        instrument: 'SearchScrip',
        marketReadAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
        via: 'broker',
      },
    });
    const tsym = indexContract('FINNIFTY', new Date(Date.now() + 7 * 86_400_000), 'F');
    const future = await call('POST', '/gtt-orders/oco?dryRun=true', {
      exch: 'NFO',
      tsym,
      target: { trigger: '26000', order: { trantype: 'S', prctyp: 'LMT', qty: 60, prc: '26000', prd: 'M' } },
      stopLoss: { trigger: '25000', order: { trantype: 'S', prctyp: 'LMT', qty: 60, prc: '24990', prd: 'M' } },
    });
    expect(future.status, JSON.stringify(future.body)).toBe(200);
    expect(future.body.exchangeRules).toEqual({
      instrument: `NFO:${tsym}`,
      tick: '0.05',
      lot: 60,
      precision: 2,
      band: 'not given by the broker',
      freeze: 1800,
      source: expect.objectContaining({ instrument: 'SearchScrip', via: 'broker' }),
    });
    // A modify's dry run lists them too; a cancel's has none (it carries no prices).
    const placed = await call('POST', '/gtt-orders', { ...SAMPLE_ORDER, tsym: 'ITC-EQ' });
    const alId = placed.body.al_id as string;
    const modify = await call('PUT', `/gtt-orders/${alId}?dryRun=true`, { ...SAMPLE_ORDER, tsym: 'ITC-EQ', d: '1480' });
    expect(modify.status, JSON.stringify(modify.body)).toBe(200);
    // The same day's rules again: kept by this container since the first read.
    expect(modify.body.exchangeRules).toMatchObject({
      instrument: 'NSE:ITC-EQ',
      band: { width: '±10%' },
      source: { instrument: 'SearchScrip', via: 'container' },
    });
    const cancel = await call('DELETE', `/gtt-orders/${alId}?dryRun=true`);
    expect(cancel.status, JSON.stringify(cancel.body)).toBe(200);
    expect(cancel.body).not.toHaveProperty('exchangeRules');
  });
});
