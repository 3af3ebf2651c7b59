/**
 * The 2026 rules end to end: market orders sent as protected limit orders (or refused), the algo id in jData.
 * Real handlers, dynalite, the broker emulator over HTTP (which refuses API market orders as the Noren brokers do).
 */
import { Logger } from '@aws-lambda-powertools/logger';
import { beforeEach, describe, expect, it } from 'vitest';

import type { AnyOperation } from '../../functions/base/contract/operation.js';
import type { GatewaySettings } from '../../functions/base/runtime/config.js';
import { createGatewayHandler } from '../../functions/orders/gateway/gateway-handler.js';
import { dynamoJournal } from '../../functions/orders/journal-factory.js';
import { modifyOcoOrder, placeGttOrder, placeOcoOrder } from '../../functions/orders/operations.js';
import { dynamoTradingControls } from '../../functions/orders/safety/trading-controls.js';
import type { LocalStack } from '../../local/run-local.js';
import type { EmulatorControl } from '../support/emulator-control.js';
import { invokeDirect, invokeHttp } from '../support/events.js';
import { useLocalStack } from '../support/local-stack-fixture.js';
import { redirectLogger } from '../support/logs.js';
import { HIGH_ORDER_RATE } from '../support/order-rate.js';
import { SAMPLE_MARKET_OCO, SAMPLE_MARKET_ORDER } from '../support/sample-order.js';

let stack: LocalStack;
let control: EmulatorControl;
const logLines: string[] = [];
let logger: Logger;
let seq = 0;
const key = () => `compliance-${Date.now()}-${++seq}`;

/** The trigger the protected prices below are worked out from. */
const market = { ...SAMPLE_MARKET_ORDER, d: '1490' };
const oco = SAMPLE_MARKET_OCO;

const handlerWith = (operation: AnyOperation, settings: GatewaySettings = {}) =>
  createGatewayHandler(operation, {
    journal: dynamoJournal,
    controls: dynamoTradingControls,
    logger,
    config: { ...stack.config, ...settings },
  });

const sent = async (operation: string) => (await control.requests()).filter((r) => r.operation === operation);
const audits = () =>
  logLines
    .map((l) => JSON.parse(l) as { message: string; audit?: Record<string, unknown> })
    .filter((l) => l.message === 'order action')
    .map((l) => l.audit!);

useLocalStack(
  () => {
    logger = redirectLogger(new Logger({ serviceName: 'gtt-gateway-test', logLevel: 'INFO' }), (line) =>
      logLines.push(line),
    );
    return { settings: HIGH_ORDER_RATE, gateway: { logger } };
  },
  (s, c) => {
    stack = s;
    control = c;
  },
);
beforeEach(() => {
  logLines.length = 0;
});

describe('market orders', () => {
  it('the emulator refuses an API market order as Noren does, so the gateway never sends one', async () => {
    const place = handlerWith(placeGttOrder);
    const reply = await invokeDirect(place, placeGttOrder, { ...market, idempotencyKey: key() });
    expect(reply.ok).toBe(true);
    const [request] = await sent('PlaceGTTOrder');
    expect(request!.jData).toMatchObject({ prctyp: 'LMT', prc: '1497.45', d: '1490' });
    expect(request!.reply).toMatchObject({ stat: 'OI created' });
  });

  it('the dry run shows the converted jData; a sell is protected below its trigger', async () => {
    const reply = await invokeHttp(handlerWith(placeGttOrder), placeGttOrder, {
      body: { ...market, trantype: 'S', prctyp: 'SL-MKT' },
      query: { dryRun: 'true' },
    });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({
      dryRun: true,
      request: { jData: { prctyp: 'SL-LMT', prc: '1482.55', trantype: 'S' } },
    });
    expect(await sent('PlaceGTTOrder')).toHaveLength(0);
  });

  it('OCO legs: MKT target -> LMT below its trigger, SL-MKT stop-loss -> SL-LMT below its own trgprc; the audit keeps both', async () => {
    const reply = await invokeDirect(handlerWith(placeOcoOrder), placeOcoOrder, { ...oco, idempotencyKey: key() });
    expect(reply.ok).toBe(true);
    const [request] = await sent('PlaceOCOOrder');
    expect(request!.jData).toMatchObject({
      place_order_params: { prctyp: 'LMT', prc: '1592.00' },
      place_order_params_leg2: { prctyp: 'SL-LMT', prc: '1388.05', trgprc: '1395' },
    });
    const [audit] = audits();
    expect(audit).toMatchObject({
      action: 'PlaceOCOOrder',
      outcome: 'succeeded',
      order: { stopLoss: { order: { prctyp: 'SL-LMT', prc: '1388.05' } } },
      requestedOrder: { stopLoss: { order: { prctyp: 'SL-MKT', prc: '0' } } },
    });
  });

  it("a flat band is a setting; the price is on the instrument's tick (SearchScrip), whatever PRICE_TICK says", async () => {
    const reply = await invokeHttp(
      handlerWith(placeGttOrder, { MARKET_PROTECTION_PERCENT: '1', PRICE_TICK: '0.1' }),
      placeGttOrder,
      {
        body: market,
        query: { dryRun: 'true' },
      },
    );
    // 1490 + 1 % = 1504.9: on the instrument's 0.05 grid, written with its decimals.
    expect(reply.body).toMatchObject({
      request: { jData: { prctyp: 'LMT', prc: '1504.90' } },
      converted: { protectionPct: '1', tick: '0.05', price: '1504.90' },
    });
  });

  it('MARKET_ORDERS=reject: 422 GUARDRAIL_REJECTED naming the leg, nothing sent; limit orders still go', async () => {
    const modify = handlerWith(modifyOcoOrder, { MARKET_ORDERS: 'reject' });
    const reply = await invokeHttp(modify, modifyOcoOrder, { body: oco, pathParameters: { alId: '26112300000001' } });
    expect(reply.status).toBe(422);
    expect(reply.body).toMatchObject({
      error: { code: 'GUARDRAIL_REJECTED', details: { rule: 'marketOrders', actual: 'MKT' } },
    });
    expect(JSON.stringify(reply.body)).toMatch(
      /target\.order: MKT orders are refused by this deployment \(MARKET_ORDERS=reject/,
    );
    const limit = await invokeDirect(handlerWith(placeGttOrder, { MARKET_ORDERS: 'reject' }), placeGttOrder, {
      ...market,
      prctyp: 'LMT',
      prc: '1500',
      idempotencyKey: key(),
    });
    expect(limit.ok).toBe(true);
    expect(await sent('ModifyOCOOrder')).toHaveLength(0);
  });
});

describe('algo id', () => {
  it('absent by default: no algo_id in jData', async () => {
    await invokeDirect(handlerWith(placeGttOrder), placeGttOrder, { ...market, idempotencyKey: key() });
    expect((await sent('PlaceGTTOrder'))[0]!.jData).not.toHaveProperty('algo_id');
  });

  it('ALGO_ID set: single orders carry it at the top, OCO legs each in their order; the dry run shows it', async () => {
    await invokeDirect(handlerWith(placeGttOrder, { ALGO_ID: '99999' }), placeGttOrder, {
      ...market,
      idempotencyKey: key(),
    });
    expect((await sent('PlaceGTTOrder'))[0]!.jData).toMatchObject({ algo_id: '99999' });
    await invokeDirect(handlerWith(placeOcoOrder, { ALGO_ID: '99999' }), placeOcoOrder, {
      ...oco,
      idempotencyKey: key(),
    });
    const [ocoRequest] = await sent('PlaceOCOOrder');
    expect(ocoRequest!.jData).toMatchObject({
      place_order_params: { algo_id: '99999' },
      place_order_params_leg2: { algo_id: '99999' },
    });
    const dry = await invokeHttp(handlerWith(placeGttOrder, { ALGO_ID: '99999' }), placeGttOrder, {
      body: market,
      query: { dryRun: 'true' },
    });
    expect(dry.body).toMatchObject({ request: { jData: { algo_id: '99999' } } });
  });

  it('a malformed ALGO_ID is a configuration error naming it, nothing sent', async () => {
    const reply = await invokeDirect(handlerWith(placeGttOrder, { ALGO_ID: '99 99' }), placeGttOrder, {
      ...market,
      idempotencyKey: key(),
    });
    expect(reply).toMatchObject({ ok: false, error: { code: 'CONFIGURATION_ERROR' } });
    expect(JSON.stringify(reply)).toMatch(/ALGO_ID/);
    expect(await sent('PlaceGTTOrder')).toHaveLength(0);
  });
});
