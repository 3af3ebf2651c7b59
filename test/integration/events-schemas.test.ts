/**
 * Lifecycle events against the JSON Schemas the docs publish (docs/events/): real events of every detail-type,
 * produced end to end on loopback (the real handlers and watcher against the emulator, the local PutEvents endpoint,
 * dynalite), each validated. Each test starts from a fresh stack and takes the watcher's baseline.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { beforeEach, describe, expect, it } from 'vitest';

import { DETAIL_TYPES } from '../../functions/base/schemas/events.js';
import type { LocalStack } from '../../local/run-local.js';
import { jdata } from '../contract/jdata-client.js';
import type { EmulatorControl } from '../support/emulator-control.js';
import { OCO, ORDER, useEventsStack } from '../support/events-stack.js';
import { GTT_STRATEGY_INPUT } from '../support/signals.js';

const ev = useEventsStack();
const { api, place, placeOutside, ltp, nextOrder, events, of, renewWithTotp } = ev;
let stack: LocalStack;
let control: EmulatorControl;
let token: string;
beforeEach(() => {
  ({ stack, control, token } = ev.current());
});

describe('event schemas (docs/events/)', () => {
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats.default(ajv);
  const validators = new Map<string, ReturnType<typeof ajv.compile>>();
  const schemaOf = (type: string) => {
    if (!validators.has(type)) {
      const file = join(
        import.meta.dirname,
        '../../docs/events',
        `${type.toLowerCase().replace(/ /g, '-')}.schema.json`,
      );
      validators.set(type, ajv.compile(JSON.parse(readFileSync(file, 'utf8')) as object));
    }
    return validators.get(type)!;
  };

  it('real events of every detail-type pass the JSON Schema the docs publish', async () => {
    const single = await place();
    await stack.watch();
    await api('PUT', `/gtt-orders/${single}`, { ...ORDER, d: '1470' });
    await api('DELETE', `/gtt-orders/${single}`);
    const fired = await place({ ...ORDER, tsym: 'SBIN-EQ' });
    await api('POST', '/gtt-orders/oco', OCO, { 'Idempotency-Key': 'oco-schema' });
    const gone = await placeOutside();
    const refused = await place({ ...ORDER, tsym: 'WIPRO-EQ' });
    await stack.watch();
    // The orders the fired GTTs place: SBIN's filled (the default), INFY's leg cancelled, WIPRO's rejected.
    await ltp('NSE', 'SBIN-EQ', 1000);
    await nextOrder({ status: 'cancelled' });
    await ltp('NSE', 'INFY-EQ', 1500);
    await ltp('NSE', 'INFY-EQ', 1300);
    await nextOrder({ status: 'rejected', reason: 'RMS:Margin Exceeds' });
    await ltp('NSE', 'WIPRO-EQ', 1000);
    await jdata(stack.emulator.url, 'CancelGTTOrder', { uid: stack.emulator.uid, al_id: gone }, token);
    await stack.watch();
    await stack.watch();
    await control.expire(token);
    await stack.watch();
    await renewWithTotp();
    // Kill Switch: on (the sweep cancels what is left) and off again.
    expect((await api('POST', '/kill-switch')).status).toBe(200);
    expect((await api('DELETE', '/kill-switch')).status).toBe(200);
    // Plans: a bracket through its exit (Armed, Step, Done) and one whose entry is refused (Failed).
    const bracket = (tsym: string) => ({
      kind: 'bracket',
      entry: { ...ORDER, tsym },
      target: { trigger: '1600', price: '1600' },
      stopLoss: { trigger: '1400', price: '1400' },
    });
    expect((await api('POST', '/plans', bracket('ITC-EQ'), { 'Idempotency-Key': 'plan-ok' })).status).toBe(201);
    await ltp('NSE', 'ITC-EQ', 1480);
    await stack.watch();
    await ltp('NSE', 'ITC-EQ', 1610);
    await stack.watch();
    expect((await api('POST', '/plans', bracket('LT-EQ'), { 'Idempotency-Key': 'plan-no' })).status).toBe(201);
    await nextOrder({ status: 'rejected', reason: 'RMS:Margin Exceeds' });
    await ltp('NSE', 'LT-EQ', 1480);
    await stack.watch();
    // Plan Unprotected: a bracket whose exit the kill switch sweeps (a position without a live exit).
    expect((await api('POST', '/plans', bracket('HCLTECH-EQ'), { 'Idempotency-Key': 'plan-bare' })).status).toBe(201);
    await ltp('NSE', 'HCLTECH-EQ', 1480);
    await stack.watch();
    expect((await api('POST', '/kill-switch')).status).toBe(200);
    expect((await api('DELETE', '/kill-switch')).status).toBe(200);
    // Position Unprotected: coverage on, the open positions without a stop (functions/risk/).
    expect((await api('PUT', '/positions/coverage', { watch: true })).status).toBe(200);
    await stack.watch();
    // Risk Limit Hit: limits of a paisa either way, so the day's P&L (the brackets' fills) crosses one; then the
    // switch off and the limits cleared for what follows.
    expect((await api('PUT', '/risk', { dayLossLimit: 0.01, dayProfitTarget: 0.01 })).status).toBe(200);
    await stack.watch();
    expect((await api('DELETE', '/kill-switch')).status).toBe(200);
    expect((await api('PUT', '/risk', {})).status).toBe(200);
    // Signals: one acted on (Received, Acted) and one refused (an unknown ticker: Refused).
    const strategy = await api(
      'POST',
      '/strategies',
      {
        name: 'schema',
        ...GTT_STRATEGY_INPUT,
      },
      { 'Idempotency-Key': 'strategy-schema' },
    );
    const webhookUrl = String(strategy.body.webhookUrl);
    for (const ticker of ['TCS', 'NOSUCHTHING'])
      expect(
        (
          await fetch(webhookUrl, {
            method: 'POST',
            body: JSON.stringify({ action: 'buy', ticker, exchange: 'NSE', price: 1500 }),
          })
        ).status,
      ).toBe(202);
    await stack.signalQueue.drained();
    // Assistant Action: an assistant's confirm through /mcp, refused (an id it never previewed).
    const assistant = await api(
      'POST',
      '/assistants',
      { name: 'schema', scopes: ['read', 'trade'] },
      { 'Idempotency-Key': 'assistant-schema' },
    );
    const confirm = await fetch(`${stack.api.url}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${String(assistant.body.token)}`,
        accept: 'application/json, text/event-stream',
        'content-type': 'application/json',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'confirm', arguments: { confirmationId: '00000000-0000-4000-8000-000000000000' } },
      }),
    });
    expect(confirm.status).toBe(200);
    await stack.eventsForwarded();
    expect(of(fired, 'GTT Triggered')).toHaveLength(1);
    expect(of(fired, 'Order Filled')).toHaveLength(1);
    expect(of(refused, 'Order Rejected')[0]!.detail).toMatchObject({
      order: { status: 'rejected', rejection: { code: 'INSUFFICIENT_FUNDS' } },
    });

    const seen = new Set(events().map((e) => e['detail-type']));
    expect([...seen].sort()).toEqual([...DETAIL_TYPES].sort());
    for (const event of events()) {
      const validate = schemaOf(event['detail-type']);
      expect(validate(event.detail), `${event['detail-type']}: ${ajv.errorsText(validate.errors)}`).toBe(true);
    }
    // And a schema refuses what it should: an event without its eventId.
    const placed = events('GTT Placed')[0]!;
    const { eventId: _omit, ...withoutId } = placed.detail;
    expect(schemaOf('GTT Placed')(withoutId)).toBe(false);
  });
});
