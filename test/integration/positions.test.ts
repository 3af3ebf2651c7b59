/**
 * GET /positions through the local HTTP API and the real handler against the emulator on 127.0.0.1: the emulator
 * keeps positions from its fills (fired GTTs' orders) and marks them to its market; the gateway answers each with its
 * net quantity, average price, realised and unrealised P&L, and the day's totals; no position is an empty list.
 */
import { describe, expect, it } from 'vitest';

import { type LocalStack } from '../../local/run-local.js';
import type { EmulatorControl } from '../support/emulator-control.js';
import { localApi } from '../support/local-api.js';
import { useLocalStack } from '../support/local-stack-fixture.js';
import { HIGH_ORDER_RATE } from '../support/order-rate.js';
import { SAMPLE_ORDER } from '../support/sample-order.js';

let stack: LocalStack;
let control: EmulatorControl;

useLocalStack(
  { settings: HIGH_ORDER_RATE },
  (s, c) => {
    stack = s;
    control = c;
  },
  { clearFaults: true },
);

const api = localApi(() => stack.api.url);
let keys = 0;
const place = async (over: Record<string, unknown>) => {
  const res = await api(
    'POST',
    '/gtt-orders',
    { ...SAMPLE_ORDER, tsym: 'INFY-EQ', ...over },
    {
      'Idempotency-Key': `positions-${++keys}-${Date.now()}`,
    },
  );
  expect(res.status).toBe(201);
};
type Positions = {
  positions: { tsym: string; netQty: number; averagePrice: number; realised: number; unrealised: number }[];
  totals: { realised: number; unrealised: number; total: number; open: number };
};

describe('GET /positions', () => {
  it('answers an empty book as no positions, all totals 0', async () => {
    const res = await api('GET', '/positions');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ positions: [], totals: { realised: 0, unrealised: 0, total: 0, open: 0 } });
  });

  it('a fill opens a position marked to the market; a sell of part of it realises the difference', async () => {
    await place({ qty: 5 });
    await control.ltp('NSE', 'INFY-EQ', 1489);
    let body = (await api('GET', '/positions')).body as Positions;
    expect(body.positions).toEqual([
      expect.objectContaining({ tsym: 'INFY-EQ', netQty: 5, averagePrice: 1489, realised: 0, unrealised: 0 }),
    ]);
    await control.ltp('NSE', 'INFY-EQ', 1495);
    body = (await api('GET', '/positions')).body as Positions;
    expect(body.positions[0]).toMatchObject({ netQty: 5, unrealised: 30 });
    expect(body.totals).toEqual({ realised: 0, unrealised: 30, total: 30, open: 1 });

    await place({ qty: 2, trantype: 'S', ai_t: 'LTP_A_O', d: '1505', prc: '1500' });
    await control.ltp('NSE', 'INFY-EQ', 1510);
    body = (await api('GET', '/positions')).body as Positions;
    // 2 sold at 1510 against an average of 1489: 42 realised; 3 left, marked at 1510: 63 unrealised.
    expect(body.positions[0]).toMatchObject({ netQty: 3, averagePrice: 1489, realised: 42, unrealised: 63 });
    expect(body.totals).toEqual({ realised: 42, unrealised: 63, total: 105, open: 1 });
  });
});
