/**
 * What the write tools make of an assistant's input before anything is sent (issue 58, item 8): `trantype` as the
 * command line takes it (`buy`, `Sell`: B and S) or refused with what it takes; a plan without the fields of its kind
 * refused naming them; a place or a change previewed while the kill switch is on says its confirm will be refused
 * (TRADING_HALTED) and how to turn the switch off; a cancel of an order no longer pending is refused at its preview.
 * The server of mcp/ over the SDK's in-memory transport, in front of
 * a port that records the dry runs and answers the kill switch's state.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { GttGatewayError } from '../../client/errors.js';
import { OPERATIONS } from '../../functions/manifest/index.js';
import { MemoryConfirmationStore } from '../../mcp/confirmations.js';
import type { GatewayPort, GatewayRequest } from '../../mcp/port.js';
import { REFUSED_WHILE_HALTED } from '../../mcp/preview.js';
import { createMcpServer } from '../../mcp/server.js';
import { callTool, PLACE } from '../support/mcp-tools.js';

let killSwitch: Record<string, unknown> | Error = { halted: false };
let quote: Record<string, unknown> | Error = { lp: '1500', precision: 2 };
const dryRuns: GatewayRequest[] = [];
const sent: GatewayRequest[] = [];
const port: GatewayPort = {
  call: (request, flags = {}) => {
    if (flags.dryRun) {
      dryRuns.push(request);
      return Promise.resolve({ dryRun: true });
    }
    if (request.operation === 'GetKillSwitch')
      return killSwitch instanceof Error ? Promise.reject(killSwitch) : Promise.resolve(killSwitch);
    if (request.operation === 'GetQuote')
      return quote instanceof Error ? Promise.reject(quote) : Promise.resolve(quote);
    // The broker's word on one order: `gone` was cancelled (or fired) already.
    if (request.operation === 'GetGTTOrder')
      return request.path?.alId === 'gone'
        ? Promise.reject(
            new GttGatewayError({ code: 'ORDER_NOT_FOUND', message: 'gone', status: 404, operation: 'GetGTTOrder' }),
          )
        : Promise.resolve({ al_id: request.path?.alId });
    sent.push(request);
    return Promise.resolve({});
  },
};

let client: Client;
beforeAll(async () => {
  const server = createMcpServer(port, { scopes: ['read', 'trade'], confirmations: new MemoryConfirmationStore() });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  client = new Client({ name: 'inputs-test', version: '1.0.0' });
  await client.connect(clientSide);
});
beforeEach(() => {
  killSwitch = { halted: false };
  dryRuns.length = 0;
  sent.length = 0;
});

const textOf = (result: Awaited<ReturnType<typeof callTool>>) =>
  (result.content as { type: string; text: string }[])[0]!.text;

describe('trantype', () => {
  it.each([
    ['buy', 'B'],
    ['Sell', 'S'],
    ['BUY', 'B'],
    ['s', 'S'],
  ])('%s is taken as the command line takes it: %s', async (typed, canonical) => {
    const result = await callTool(client, 'place_gtt', { ...PLACE, trantype: typed });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(dryRuns.at(-1)?.body?.trantype).toBe(canonical);
    expect((result.structuredContent?.request as GatewayRequest).body?.trantype).toBe(canonical);
  });

  it("an OCO leg's too; anything else is refused with what it takes, nothing sent", async () => {
    const leg = (trantype: string, trigger: string) => ({
      trigger,
      order: { trantype, prctyp: 'LMT', qty: 1, prc: trigger, prd: 'C' },
    });
    const oco = { exch: 'NSE', tsym: 'INFY-EQ', target: leg('sell', '1600'), stopLoss: leg('SELL', '1400') };
    const placed = await callTool(client, 'place_oco', oco);
    expect(placed.isError, textOf(placed)).toBeFalsy();
    const body = dryRuns.at(-1)!.body as { target: { order: { trantype: string } }; stopLoss: typeof body.target };
    expect([body.target.order.trantype, body.stopLoss.order.trantype]).toEqual(['S', 'S']);

    const before = dryRuns.length;
    const long = await callTool(client, 'place_gtt', { ...PLACE, trantype: 'long' });
    expect(long.isError).toBe(true);
    expect(textOf(long)).toContain('-32602');
    expect(textOf(long)).toContain('trantype must be B, S (also buy, sell), any case; got "long"');
    expect(dryRuns.length).toBe(before);
    expect(sent).toEqual([]);
  });
});

describe('create_plan', () => {
  const target = { trigger: '1600', price: '1600' };
  const stopLoss = { trigger: '1400', price: '1395' };

  it('a bracket without its entry is refused naming entry and what a bracket takes; nothing is read or sent', async () => {
    const result = await callTool(client, 'create_plan', { kind: 'bracket', target, stopLoss });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('a bracket plan needs entry; it takes entry (a place_gtt body), target and');
    expect(textOf(result)).not.toContain('is not one of');
    expect([dryRuns, sent]).toEqual([[], []]);
  });

  it("a trailing stop without order and trailBy, or with a bracket's fields, is refused naming them", async () => {
    const bare = await callTool(client, 'create_plan', { kind: 'trailing-stop' });
    expect(textOf(bare)).toContain('a trailing-stop plan needs order and trailBy; it takes order (a place_gtt body)');
    const mixed = await callTool(client, 'create_plan', { kind: 'trailing-stop', order: PLACE, trailBy: 5, target });
    expect(textOf(mixed)).toContain('target is not a field of a trailing-stop plan');
    expect([dryRuns, sent]).toEqual([[], []]);
  });

  it('a complete bracket is previewed', async () => {
    const result = await callTool(client, 'create_plan', { kind: 'bracket', entry: PLACE, target, stopLoss });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(result.structuredContent?.summary).toMatch(/^Start a bracket plan: entry NSE:INFY-EQ buy/);
    expect(sent).toEqual([]);
  });
});

describe('a preview while the kill switch is on', () => {
  it('says its confirm will be refused with TRADING_HALTED, and how to turn the switch off', async () => {
    killSwitch = { halted: true, mode: 'cancel-all', changedAt: '2026-12-06T09:30:00.000Z' };
    const result = await callTool(client, 'place_gtt', PLACE);
    const preview = result.structuredContent!;
    expect(preview.confirmationId).toEqual(expect.any(String));
    expect(preview.killSwitch).toContain('The kill switch is ON since 2026-12-06T09:30:00.000Z');
    expect(preview.killSwitch).toContain('confirm will be refused with TRADING_HALTED (423) and nothing sent');
    expect(preview.killSwitch).toContain('kill_switch_off');
    expect(preview.rulesChecked).toContain('kill switch: ON (cancel-all since 2026-12-06T09:30:00.000Z)');
    expect(sent).toEqual([]);
  });

  it('says nothing while it is off, and a failed read is said, never taken for off', async () => {
    const off = (await callTool(client, 'place_gtt', PLACE)).structuredContent!;
    expect(off.killSwitch).toBeUndefined();
    expect(off.rulesChecked).toContain('kill switch: off');
    killSwitch = new GttGatewayError({
      code: 'BROKER_UNAVAILABLE',
      message: 'down',
      status: 503,
      operation: 'GetKillSwitch',
    });
    const unread = (await callTool(client, 'place_gtt', PLACE)).structuredContent!;
    expect(unread.rulesChecked).toContain('kill switch: not read (BROKER_UNAVAILABLE); confirm checks it again');
  });

  it("is read for exactly the operations the order table refuses while halted (a cancel's preview does not)", async () => {
    const halted = OPERATIONS.filter((op) => op.refusedWhileHalted).map((op) => op.name);
    expect([...REFUSED_WHILE_HALTED].sort()).toEqual([...halted].sort());
    killSwitch = { halted: true };
    const cancel = (await callTool(client, 'cancel_gtt', { alId: '1' })).structuredContent!;
    expect(cancel.killSwitch).toBeUndefined();
  });
});

describe('the market in a preview', () => {
  it('a quote that cannot be read is said, never a reason to refuse; a missing price shows no distance', async () => {
    quote = new GttGatewayError({ code: 'BROKER_TIMEOUT', message: 'slow', status: 504, operation: 'GetQuote' });
    const unread = (await callTool(client, 'place_gtt', PLACE)).structuredContent!;
    expect(unread.confirmationId).toEqual(expect.any(String));
    expect(unread.market).toEqual({
      instrument: 'NSE:INFY-EQ',
      priceUnavailable: 'the quote could not be read (BROKER_TIMEOUT: slow)',
      triggers: [{ what: 'trigger', trigger: String(PLACE.d) }],
    });
    quote = { precision: 2 };
    const none = (await callTool(client, 'place_gtt', PLACE)).structuredContent!;
    expect(none.summary).toContain('Last price of NSE:INFY-EQ: unavailable (the broker has no quote for it yet)');
    quote = { lp: '1500', precision: 2 };
  });

  it("a plan's triggers: a bracket's entry and exits, a trailing stop's stop; kill switch and plan cancel have none", async () => {
    const bracket = (
      await callTool(client, 'create_plan', {
        kind: 'bracket',
        entry: { ...PLACE, d: '1485' },
        target: { trigger: '1650', price: '1650' },
        stopLoss: { trigger: '1350', price: '1350' },
        tag: 'b1',
      })
    ).structuredContent!;
    expect(bracket.market).toMatchObject({
      lastPrice: '1500',
      triggers: [
        { what: 'entry', trigger: '1485', points: '-15.00', pct: '-1.00' },
        { what: 'exit target', trigger: '1650', points: '+150.00', pct: '+10.00' },
        { what: 'exit stop-loss', trigger: '1350', points: '-150.00', pct: '-10.00' },
      ],
      tag: 'b1',
    });
    const off = (await callTool(client, 'kill_switch_off', {})).structuredContent!;
    expect(off.market).toBeUndefined();
    expect(sent).toEqual([]);
  });
});

describe('cancel_gtt', () => {
  it('of an order no longer pending at the broker is refused at its preview, saying so; nothing is sent', async () => {
    const result = await callTool(client, 'cancel_gtt', { alId: 'gone' });
    expect(result.structuredContent).toMatchObject({ refused: true });
    expect(result.structuredContent?.reason).toContain('GTT/OCO gone is not pending at the broker');
    expect(result.structuredContent?.confirmationId).toBeUndefined();
    const pending = (await callTool(client, 'cancel_gtt', { alId: '7' })).structuredContent!;
    expect(pending.confirmationId).toEqual(expect.any(String));
    expect(pending.rulesChecked).toContain('the order is pending at the broker (read now)');
    expect(sent).toEqual([]);
  });
});
