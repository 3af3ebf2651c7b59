/**
 * The control functions that take no dry run refuse one by name, and any option they do not read (issue 33's
 * findings, docs/reference/request-rules.md): `POST /kill-switch?dryRun=true` must not halt trading and sweep the pending
 * orders, `POST /plans?dryRun=true` must not place an entry, and a direct invocation with `dryRun: true` neither.
 * Nothing is done: the switch stays off and the broker holds what it held.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { main } from '../../client/cli.js';
import { createKillSwitch } from '../../functions/controls/kill-switch.js';
import { createPlansFunction } from '../../functions/plans/function.js';
import { lambdaContext } from '../../local/lambda-context.js';
import { type LocalStack, startLocalStack } from '../../local/run-local.js';
import { emulatorControl } from '../support/emulator-control.js';
import { localApi } from '../support/local-api.js';
import { HIGH_ORDER_RATE } from '../support/order-rate.js';
import { SAMPLE_ORDER } from '../support/sample-order.js';

let stack: LocalStack;
const BRACKET = {
  kind: 'bracket',
  entry: { ...SAMPLE_ORDER, tsym: 'TCS-EQ', qty: 2 },
  target: { trigger: '1600', price: '1600' },
  stopLoss: { trigger: '1400', price: '1400' },
};

const http = localApi<{ error?: { code: string; message: string } }>(() => stack.api.url);
const pending = async () =>
  (await emulatorControl(stack.emulator.url).orders(stack.emulator.uid)).filter((o) => o.state === 'pending');

beforeAll(async () => {
  stack = await startLocalStack({ settings: HIGH_ORDER_RATE });
  // One order the kill switch would sweep.
  const placed = await http('POST', '/gtt-orders', SAMPLE_ORDER, { 'Idempotency-Key': 'dry-run-kill-switch' });
  expect(placed.status).toBe(201);
});
afterAll(() => stack.close());

describe('the kill switch', () => {
  it('POST /kill-switch?dryRun=true is refused by name: the switch stays off, nothing is swept', async () => {
    const refused = await http('POST', '/kill-switch?dryRun=true');
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(refused.body.error!.message).toMatch(/dryRun is not offered by POST \/kill-switch: .*nothing was done/);
    expect((await http('GET', '/kill-switch')).body).toMatchObject({ halted: false });
    expect(await pending()).toHaveLength(1);
    // Any other option is refused too (never ignored), on every method.
    expect((await http('GET', '/kill-switch?verbose=1')).status).toBe(400);
    expect((await http('DELETE', '/kill-switch?force=true')).status).toBe(400);
  });

  it('a direct {action: "on", dryRun: true} is refused; the CLI call --dry-run exits non-zero, halting nothing', async () => {
    const killSwitch = createKillSwitch({ config: stack.config });
    await expect(killSwitch({ action: 'on', dryRun: true }, lambdaContext('KillSwitch'))).rejects.toMatchObject({
      name: 'ValidationFailed',
    });
    const out: string[] = [];
    const io = { out: (t: string) => out.push(t), err: (t: string) => out.push(t) };
    const code = await main(['call', 'ActivateKillSwitch', '--dry-run', '--url', stack.api.url], {}, io);
    expect(code).not.toBe(0);
    expect(out.join('\n')).toMatch(/dryRun/);
    expect((await http('GET', '/kill-switch')).body).toMatchObject({ halted: false });
    expect(await pending()).toHaveLength(1);
  });
});

describe('plans', () => {
  it('POST /plans?dryRun=true and a direct create with dryRun answer the first GTT it would place: none placed, no plan kept', async () => {
    const dry = await http('POST', '/plans?dryRun=true', BRACKET, { 'Idempotency-Key': 'dry-run-plan' });
    expect(dry.status).toBe(200);
    expect(dry.body).toMatchObject({ dryRun: true, kind: 'bracket' });
    const plans = createPlansFunction({ settings: stack.config });
    const direct = await plans(
      { action: 'create', idempotencyKey: 'dry-run-direct', plan: BRACKET, dryRun: true },
      lambdaContext('Plans'),
    );
    expect(direct).toMatchObject({ dryRun: true, kind: 'bracket' });
    expect((await pending()).filter((o) => o.tsym === 'TCS-EQ')).toHaveLength(0);
    expect((await http('GET', '/plans')).body).toMatchObject({ plans: [] });
  });

  it('an option a plans route does not read is refused, never ignored', async () => {
    expect((await http('GET', '/plans?state=armed&limit=1')).status).toBe(400);
    expect((await http('GET', '/plans/pl0123456789abcdef?verbose=1')).status).toBe(400);
    expect((await http('DELETE', '/plans/pl0123456789abcdef?force=true')).status).toBe(400);
    expect((await http('GET', '/plans?limit=1')).status).toBe(200);
    const plans = createPlansFunction({ settings: stack.config });
    await expect(plans({ action: 'list', state: 'armed' }, lambdaContext('Plans'))).rejects.toMatchObject({
      name: 'ValidationFailed',
    });
  });
});
