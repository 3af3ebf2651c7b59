/**
 * Tools as an assistant meets them over the real remote server. The kill switch (`POST /mcp` on the local stack, the API's
 * permissions enforced on its role; issue 58, item 8): `kill_switch_on` records the assistant as who turned it on
 * (`changedBy` `<the server's identity> for assistant:<id>`); a place previewed while it is on says the confirm will
 * be refused with TRADING_HALTED and how to turn it off, and the confirm is refused so; `POST /kill-switch` refuses
 * an `onBehalfOf` it cannot record, by name, and changes nothing. A cancel of a GTT already cancelled is refused at its
 * preview, saying so. `pending_gtts` answers each order in the fields the write tools take, without the broker's
 * bookkeeping. A write's preview shows the market beside the order (issue 58, item 5): the last price, each
 * trigger's distance from it and the tag; a quote naming another instrument is never used (the price unavailable).
 * `get_positions` answers the day's positions (none on an empty day; a fill's, marked to the market) and totals.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import type { LocalStack } from '../../local/run-local.js';
import type { EmulatorControl } from '../support/emulator-control.js';
import { useLocalStack } from '../support/local-stack-fixture.js';
import { callTool, PLACE, remoteMcpClient } from '../support/mcp-tools.js';

let stack: LocalStack;
let control: EmulatorControl;
useLocalStack({}, (s, c) => {
  stack = s;
  control = c;
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- replies read field by field
type Json = Record<string, any>;
let keys = 0;
const api = async (method: string, path: string, body?: unknown) => {
  const res = await fetch(`${stack.api.url}${path}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(['/assistants', '/gtt-orders', '/gtt-orders/oco'].includes(path)
        ? { 'Idempotency-Key': `mcp-live-${++keys}-${Date.now()}` }
        : {}),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as Json };
};

let client: Client;
let assistantId: string;
beforeAll(async () => {
  const created = await api('POST', '/assistants', { name: 'halter', scopes: ['read', 'trade'], limits: {} });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  assistantId = created.body.assistantId as string;
  client = await remoteMcpClient(stack.api.url, created.body.token as string);
});
afterEach(async () => {
  await api('DELETE', '/kill-switch');
});
afterAll(async () => {
  await client?.close();
});

describe('the kill switch and an assistant', () => {
  it('kill_switch_on records the assistant; a place previewed then says its confirm will be refused', async () => {
    const on = await callTool(client, 'kill_switch_on', { mode: 'keep-exits' });
    expect(on.isError, JSON.stringify(on.structuredContent)).toBeFalsy();
    const state = await api('GET', '/kill-switch');
    expect(state.body).toMatchObject({ halted: true, mode: 'keep-exits' });
    expect(state.body.changedBy).toMatch(new RegExp(` for assistant:${assistantId}$`));

    const preview = (await callTool(client, 'place_gtt', PLACE)).structuredContent!;
    expect(preview.rulesChecked).toContainEqual(expect.stringMatching(/^kill switch: ON \(keep-exits since /));
    expect(preview.killSwitch).toContain('confirm will be refused with TRADING_HALTED (423) and nothing sent');
    const confirmed = await callTool(client, 'confirm', { confirmationId: preview.confirmationId });
    expect(confirmed.structuredContent?.error).toMatchObject({ code: 'TRADING_HALTED' });
  });

  it('a place previewed while it is off says so and carries no warning', async () => {
    const preview = (await callTool(client, 'place_gtt', PLACE)).structuredContent!;
    expect(preview.rulesChecked).toContain('kill switch: off');
    expect(preview.killSwitch).toBeUndefined();
  });

  it('POST /kill-switch refuses an onBehalfOf it cannot record, by name, and stays off', async () => {
    const refused = await api('POST', '/kill-switch', { onBehalfOf: 'assistant:<script>' });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body.error)).toContain('onBehalfOf must be 1-128 letters');
    expect((await api('GET', '/kill-switch')).body.halted).toBe(false);
  });
});

describe('a cancel previewed', () => {
  it('of a GTT already cancelled is refused, saying so; of a pending one, previewed', async () => {
    const placed = await api('POST', '/gtt-orders', PLACE);
    expect(placed.status, JSON.stringify(placed.body)).toBe(201);
    const alId = placed.body.al_id as string;
    const pending = (await callTool(client, 'cancel_gtt', { alId })).structuredContent!;
    expect(pending.confirmationId).toEqual(expect.any(String));
    expect(pending.market).toMatchObject({
      instrument: 'NSE:INFY-EQ',
      triggers: [{ what: 'trigger', trigger: '1490' }],
    });
    expect((await api('DELETE', `/gtt-orders/${alId}`)).status).toBe(200);
    const again = (await callTool(client, 'cancel_gtt', { alId })).structuredContent!;
    expect(again).toMatchObject({ refused: true });
    expect(again.reason).toContain(`GTT/OCO ${alId} is not pending at the broker (already cancelled`);
  });
});

describe('pending_gtts', () => {
  it("answers each order in the write tools' fields, without the broker's bookkeeping", async () => {
    const gtt = await api('POST', '/gtt-orders', { ...PLACE, tag: 'live-1' });
    const leg = (trantype: string, trigger: string) => ({
      trigger,
      order: { trantype, prctyp: 'LMT', qty: 1, prc: trigger, prd: 'C' },
    });
    const oco = await api('POST', '/gtt-orders/oco', {
      exch: 'NSE',
      tsym: 'INFY-EQ',
      target: leg('S', '1600'),
      stopLoss: leg('S', '1400'),
    });
    expect([gtt.status, oco.status], JSON.stringify([gtt.body, oco.body])).toEqual([201, 201]);
    const list = (await callTool(client, 'pending_gtts', {})).structuredContent!;
    const orders = list.orders as Json[];
    const single = orders.find((o) => o.al_id === gtt.body.al_id)!;
    expect(single).toEqual({
      al_id: gtt.body.al_id,
      type: 'single',
      exch: 'NSE',
      tsym: 'INFY-EQ',
      trantype: 'B',
      qty: expect.anything() as unknown,
      prctyp: 'LMT',
      prc: '1500',
      prd: 'C',
      ai_t: 'LTP_B_O',
      d: '1490',
      ...(single.validity === undefined ? {} : { validity: single.validity as string }),
      tag: 'live-1',
    });
    const pair = orders.find((o) => o.al_id === oco.body.al_id)!;
    expect(Object.keys(pair).sort()).toEqual(
      ['al_id', 'type', 'exch', 'tsym', 'target', 'stopLoss', ...('validity' in pair ? ['validity'] : [])].sort(),
    );
    expect(pair.target).toMatchObject({ trigger: '1600', order: { trantype: 'S', prctyp: 'LMT', prc: '1600' } });
    expect(pair.stopLoss).toMatchObject({ trigger: '1400', order: { trantype: 'S' } });
    for (const noise of ['stat', 'token', 'pp', 'ls', 'ti', 'actid', 'oivariable', 'place_order_params'])
      expect(JSON.stringify(list)).not.toContain(`"${noise}"`);
  });
});

describe('a preview shows the market beside the order', () => {
  it("the last price, each trigger's distance from it (points and %) and the tag", async () => {
    await control.ltp('NSE', 'INFY-EQ', 1500);
    const single = (await callTool(client, 'place_gtt', { ...PLACE, tag: 'swing-1' })).structuredContent!;
    expect(single.market).toEqual({
      instrument: 'NSE:INFY-EQ',
      lastPrice: '1500',
      triggers: [{ what: 'trigger', trigger: '1490', points: '-10.00', pct: '-0.67' }],
      tag: 'swing-1',
    });
    expect(single.summary).toContain(
      'Last price of NSE:INFY-EQ 1500; trigger 1490 is 10.00 (0.67%) below it; tag swing-1.',
    );
    const leg = (trigger: string) => ({
      trigger,
      order: { trantype: 'S', prctyp: 'LMT', qty: 1, prc: trigger, prd: 'C' },
    });
    const oco = (
      await callTool(client, 'place_oco', { exch: 'NSE', tsym: 'INFY-EQ', target: leg('1650'), stopLoss: leg('1425') })
    ).structuredContent!;
    expect((oco.market as Json).triggers).toEqual([
      { what: 'target', trigger: '1650', points: '+150.00', pct: '+10.00' },
      { what: 'stop-loss', trigger: '1425', points: '-75.00', pct: '-5.00' },
    ]);
    expect(oco.summary).toContain(
      'target 1650 is 150.00 (10.00%) above it; stop-loss 1425 is 75.00 (5.00%) below it; no tag.',
    );
  });

  it('a trigger of another alert type is measured against its own figure, or says why there is none', async () => {
    await control.ltp('NSE', 'INFY-EQ', 1500, undefined, { atp: 1512.5 });
    const atp = (await callTool(client, 'place_gtt', { ...PLACE, ai_t: 'ATP_B_O', d: '1490' })).structuredContent!;
    expect((atp.market as Json).triggers).toEqual([
      { what: 'trigger', trigger: '1490', against: 'average price', value: '1512.5', points: '-22.50', pct: '-1.49' },
    ]);
    expect(atp.summary).toContain('trigger (average price) 1490 is 22.50 (1.49%) below the average price 1512.5;');
    const volume = (await callTool(client, 'place_gtt', { ...PLACE, ai_t: 'VOLUME_A_O', d: '250000' }))
      .structuredContent!;
    expect((volume.market as Json).triggers).toEqual([
      {
        what: 'trigger',
        trigger: '250000',
        against: 'volume',
        unavailable: "the broker's quote gives no volume",
      },
    ]);
  });

  it('a quote naming another instrument is never used: the price is unavailable, no distance shown', async () => {
    await control.ltp('NSE', 'INFY-EQ', 1500);
    await control.fault({ operation: 'GetQuotes', kind: 'otherInstrument', times: 10 });
    const preview = (await callTool(client, 'place_gtt', PLACE)).structuredContent!;
    await control.clearFaults();
    expect(preview.confirmationId).toEqual(expect.any(String));
    const market = preview.market as Json;
    expect(market).not.toHaveProperty('lastPrice');
    expect(market.priceUnavailable).toContain('named another instrument, NSE:Nifty 50 (token 26000)');
    expect(market.triggers).toEqual([{ what: 'trigger', trigger: '1490' }]);
    expect(preview.summary).toContain('Last price of NSE:INFY-EQ: unavailable (');
    expect(JSON.stringify(preview)).not.toContain('24584.85');
  });
});

describe('get_positions', () => {
  it("answers no positions on an empty day, then a fill's position marked to the market and the day's totals", async () => {
    const empty = await callTool(client, 'get_positions', {});
    expect(empty.isError, JSON.stringify(empty.structuredContent)).toBeFalsy();
    expect(empty.structuredContent).toEqual({
      positions: [],
      totals: { realised: 0, unrealised: 0, total: 0, open: 0 },
    });

    await control.ltp('NSE', 'INFY-EQ', 1500);
    const placed = await api('POST', '/gtt-orders', { ...PLACE, qty: 3 });
    expect(placed.status, JSON.stringify(placed.body)).toBe(201);
    await control.ltp('NSE', 'INFY-EQ', 1489); // the trigger (1490) met: the buy fills at 1489
    await control.ltp('NSE', 'INFY-EQ', 1495);
    const read = (await callTool(client, 'get_positions', {})).structuredContent!;
    expect(read.positions).toEqual([
      expect.objectContaining({
        exch: 'NSE',
        tsym: 'INFY-EQ',
        product: 'C',
        netQty: 3,
        averagePrice: 1489,
        lastPrice: 1495,
        realised: 0,
        unrealised: 18,
      }),
    ]);
    expect(read.totals).toEqual({ realised: 0, unrealised: 18, total: 18, open: 1 });
  });
});
