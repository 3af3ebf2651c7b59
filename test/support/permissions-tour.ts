/**
 * A tour of every function of the manifest that runs on the local stack, step by step, each step labelled on the
 * permission gate (local/permissions/gate.ts `label`) so each recorded AWS call names the step that made it
 * (test/integration/permissions-grants.test.ts). Each step asserts its own answer: a call the deployed permissions
 * refuse fails its step, with the refusal's words.
 */
import { BatchWriteItemCommand, DynamoDBClient, ScanCommand } from '@aws-sdk/client-dynamodb';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';

import { ROUTES } from '../../functions/manifest/index.js';
import { clearDayRules } from '../../functions/orders/instruments/rules.js';
import { LOCAL_INSTRUMENTS_TABLE } from '../../local/dynamodb.js';
import { LOCAL_RUN_PREFIX, type LocalStack } from '../../local/run-local.js';
import { emulatorControl } from './emulator-control.js';
import { callTool, PLACE, remoteMcpClient } from './mcp-tools.js';
import { SAMPLE_ORDER } from './sample-order.js';
import { GTT_STRATEGY_INPUT } from './signals.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- replies read field by field
export type Json = Record<string, any>;

export interface Answer {
  status: number;
  body: Json;
}

const OCO = {
  exch: 'NSE',
  tsym: 'INFY-EQ',
  target: { trigger: '1600', order: { trantype: 'S', prctyp: 'LMT', qty: 1, prc: '1600', prd: 'C' } },
  stopLoss: { trigger: '1400', order: { trantype: 'S', prctyp: 'LMT', qty: 1, prc: '1390', prd: 'C' } },
};

const BRACKET = {
  kind: 'bracket',
  entry: { ...SAMPLE_ORDER, tsym: 'M&M-EQ', qty: 2 },
  target: { trigger: '1600', price: '1600' },
  stopLoss: { trigger: '1400', price: '1400' },
};

const TRAILING = {
  kind: 'trailing-stop',
  order: { ...SAMPLE_ORDER, tsym: 'WIPRO-EQ', trantype: 'S', d: '1400', prc: '1395' },
  trailBy: '100',
  step: '5',
};

const STRATEGY = { name: 'tour', ...GTT_STRATEGY_INPUT };

/** Whether the route takes an Idempotency-Key (the manifest's): the tour sends one wherever it is taken. */
const takesKey = (method: string, path: string): boolean => {
  const bare = path.split('?')[0]!;
  const matching = ROUTES.filter(
    ({ route }) => route.method === method && new RegExp(`^${route.path.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(bare),
  );
  // A literal route before one with a parameter (`/gtt-orders/oco/{alId}` before `/gtt-orders/{alId}`).
  const route = matching.sort((a, b) => a.route.path.split('{').length - b.route.path.split('{').length)[0]?.route;
  return route?.idempotencyKey !== undefined;
};

/** A strategy's bracket: entry 1% under the alert's price, its target 3% over, its stop 3% under. */
const BRACKET_ACTION = {
  kind: 'bracket',
  order: { exch: 'NSE', prd: 'C', prctyp: 'LMT', ret: 'DAY', qty: 1 },
  entry: { trigger: { offset: '-1%' }, price: { offset: '-1%' } },
  target: { trigger: { offset: '+3%' }, price: { offset: '+3%' } },
  stopLoss: { trigger: { offset: '-3%' }, price: { offset: '-3%' } },
};

/** A tour's driver: steps labelled on the stack's gate, and what a failed step shows. */
export const tourOf = (stack: LocalStack) => {
  const gate = stack.permissions;
  if (!gate) throw new Error('the tour needs the permission gate on (startLocalStack({ recordPermissions: true }))');
  let keys = 0;
  // The machine's own credentials (not a function's): the gate lets its calls through, unrecorded.
  const dynamo = new DynamoDBClient({ endpoint: stack.dynamo.url });

  /**
   * Each step as deployed: its function in a container of its own, which has kept no instrument's rules, and the
   * day's first read of the instruments' copy (its items emptied). Here every function shares one process, and
   * one's rules would spare the next its reads.
   */
  const coldStart = async () => {
    clearDayRules();
    const { Items = [] } = await dynamo.send(new ScanCommand({ TableName: LOCAL_INSTRUMENTS_TABLE }));
    for (let i = 0; i < Items.length; i += 25)
      await dynamo.send(
        new BatchWriteItemCommand({
          RequestItems: {
            [LOCAL_INSTRUMENTS_TABLE]: Items.slice(i, i + 25).map((item) => ({
              DeleteRequest: { Key: { pk: item.pk! } },
            })),
          },
        }),
      );
  };

  /** A step's failure: what it answered, and each call the gate refused while it ran, in AWS's words. */
  class StepFailed extends Error {}
  const failure = async (label: string, what: string) => {
    const refused = gate.refused.filter((c) => c.label === label);
    const reasons = await Promise.all(
      refused.map(async (c) => `  AccessDeniedException: ${await gate.decide(c.function, c)}`),
    );
    return new StepFailed(`step "${label}": ${what}${reasons.length ? `\n${reasons.join('\n')}` : ''}`);
  };

  /** Runs `run` with the gate's label set to `label`; a failure names the step and its refused calls. */
  const step = async <T>(label: string, run: () => Promise<T>): Promise<T> => {
    await coldStart();
    gate.label = label;
    try {
      const result = await run();
      // The outbox's events go through the EventForwarder asynchronously: its calls belong to this step.
      await stack.eventsForwarded();
      return result;
    } catch (error) {
      throw error instanceof StepFailed
        ? error
        : await failure(label, error instanceof Error ? error.message : String(error));
    } finally {
      gate.label = undefined;
    }
  };

  /** One HTTP call of the local API, which must answer `status`. */
  const call = async (
    label: string,
    method: string,
    path: string,
    status: number,
    body?: unknown,
    /** The Idempotency-Key to send (a retry's); default a fresh one where the route takes one. */
    key?: string,
  ) =>
    step(label, async () => {
      const sent = key ?? (takesKey(method, path) ? `tour-${++keys}-${Date.now()}` : undefined);
      const res = await fetch(`${stack.api.url}${path}`, {
        method,
        headers: {
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...(sent ? { 'Idempotency-Key': sent } : {}),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await res.text();
      const answer: Answer = { status: res.status, body: (text ? JSON.parse(text) : {}) as Json };
      if (res.status !== status) throw new Error(`${method} ${path} answered ${res.status}, not ${status}: ${text}`);
      return answer;
    });

  return { gate, step, call };
};

export type Tour = ReturnType<typeof tourOf>;

/** An MCP tool's answer, which must carry structured content without an error or a refusal. */
const tool = async (client: Client, name: string, args: Json = {}) => {
  const result = await callTool(client, name, args);
  const content = result.structuredContent;
  if (result.isError || !content || content.error || content.refused)
    throw new Error(`MCP tool ${name} answered ${JSON.stringify(result).slice(0, 600)}`);
  return content;
};

/** The orders' functions: place, read, change and cancel a GTT and an OCO, the books, a quote, the client. */
export const orderSteps = async (stack: LocalStack, { call, step }: Tour) => {
  const control = emulatorControl(stack.emulator.url);
  /** A write the broker refuses (certainly not executed: its journal entry is released): 422 BROKER_REJECTED. */
  const refused = async (label: string, operation: string, method: string, path: string, body?: unknown) => {
    await control.fault({ operation, kind: 'notOk', times: 1 });
    await call(label, method, path, 422, body);
  };
  const gtt = (await call('place a GTT', 'POST', '/gtt-orders', 201, SAMPLE_ORDER, 'tour-place')).body.al_id as string;
  const again = await call('place it again with its key', 'POST', '/gtt-orders', 201, SAMPLE_ORDER, 'tour-place');
  if (again.body.al_id !== gtt) throw new Error(`the retry placed another order: ${JSON.stringify(again.body)}`);
  await refused('a place the broker refuses', 'PlaceGTTOrder', 'POST', '/gtt-orders', { ...SAMPLE_ORDER, qty: 3 });
  const oco = (await call('place an OCO', 'POST', '/gtt-orders/oco', 201, OCO)).body.al_id as string;
  await refused('an OCO place the broker refuses', 'PlaceOCOOrder', 'POST', '/gtt-orders/oco', OCO);
  await call('list the pending GTTs', 'GET', '/gtt-orders', 200);
  await call('read one GTT', 'GET', `/gtt-orders/${gtt}`, 200);
  await call('read one GTT fresh', 'GET', `/gtt-orders/${gtt}?fresh=true`, 200);
  await call('list the triggered GTTs', 'GET', '/gtt-orders/triggered', 200);
  await call('list the enabled GTTs', 'GET', '/gtt-orders/enabled', 200);
  await call('modify a GTT (PUT)', 'PUT', `/gtt-orders/${gtt}`, 200, { ...SAMPLE_ORDER, qty: 2 });
  await refused('a modify the broker refuses', 'ModifyGTTOrder', 'PUT', `/gtt-orders/${gtt}`, {
    ...SAMPLE_ORDER,
    qty: 4,
  });
  const ocoChanged = { ...OCO, stopLoss: { ...OCO.stopLoss, trigger: '1405' } };
  await call('modify an OCO (PUT)', 'PUT', `/gtt-orders/oco/${oco}`, 200, ocoChanged);
  await refused('an OCO modify the broker refuses', 'ModifyOCOOrder', 'PUT', `/gtt-orders/oco/${oco}`, OCO);
  await call('change a GTT (PATCH)', 'PATCH', `/gtt-orders/${gtt}`, 200, { d: '1495' });
  await refused('a PATCH the broker refuses', 'ModifyGTTOrder', 'PATCH', `/gtt-orders/${gtt}`, { d: '1485' });
  await call('change an OCO (PATCH)', 'PATCH', `/gtt-orders/oco/${oco}`, 200, { stopLoss: { trigger: '1410' } });
  await refused('an OCO PATCH the broker refuses', 'ModifyOCOOrder', 'PATCH', `/gtt-orders/oco/${oco}`, {
    stopLoss: { trigger: '1415' },
  });
  await refused('a cancel the broker refuses', 'CancelGTTOrder', 'DELETE', `/gtt-orders/${gtt}`);
  await call('cancel a GTT', 'DELETE', `/gtt-orders/${gtt}`, 200);
  await call('cancel an OCO', 'DELETE', `/gtt-orders/${oco}`, 200);
  await call('read the order book', 'GET', '/orders', 200);
  await call('read the positions', 'GET', '/positions', 200);
  // A day's limit far from any P&L of the tour: the watcher's runs below read the positions and write the day's state.
  await call("set the day's limits", 'PUT', '/risk', 200, { dayLossLimit: 10_000_000 });
  await call("read the day's limits", 'GET', '/risk', 200);
  await call('read the coverage', 'GET', '/positions/coverage', 200);
  await call('coverage settings', 'PUT', '/positions/coverage', 200, { watch: false });
  // A long of 1 SBIN-EQ (a buy GTT that fires), closed now by one protected sell: the order path in-process.
  await call('place a GTT that fills', 'POST', '/gtt-orders', 201, { ...SAMPLE_ORDER, tsym: 'SBIN-EQ' });
  await control.ltp('NSE', 'SBIN-EQ', 1489);
  const sbin = { exch: 'NSE', tsym: 'SBIN-EQ', prd: 'C' };
  await refused('a close the broker refuses', 'PlaceOrder', 'POST', '/positions/close', sbin);
  await call('close a position', 'POST', '/positions/close', 200, sbin);
  await call('read a quote', 'GET', '/quotes?exch=NSE&tsym=INFY-EQ', 200);
  // The day's chain (the InstrumentRefresh's) read beside the quote; each step empties the copy, so it loads it too.
  await step("read the day's option chain", async () => {
    for (const path of [`${LOCAL_RUN_PREFIX}InstrumentRefresh`, '/options?underlying=NIFTY']) {
      const res = await fetch(`${stack.api.url}${path}`, { method: path.startsWith('/options') ? 'GET' : 'POST' });
      if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${await res.text()}`);
    }
  });
  await call("read the day's price bars", 'GET', '/quotes/series?exch=NSE&tsym=INFY-EQ', 200);
  await call('read the client details', 'GET', '/client', 200);
};

/** Plans: a bracket and a trailing stop, listed and read, the watcher running their steps, one deleted. */
export const planSteps = async (stack: LocalStack, { call, step }: Tour) => {
  const control = emulatorControl(stack.emulator.url);
  await control.ltp('NSE', 'WIPRO-EQ', 1500);
  await control.fault({ operation: 'PlaceGTTOrder', kind: 'notOk', times: 1 });
  await call('a plan whose first GTT the broker refuses', 'POST', '/plans', 422, BRACKET);
  const bracket = (await call('create a bracket plan', 'POST', '/plans', 201, BRACKET)).body.planId as string;
  // A GTT of its own the watcher sees pending, then fired at the broker.
  await call('place a GTT the watcher sees', 'POST', '/gtt-orders', 201, { ...SAMPLE_ORDER, tsym: 'TCS-EQ' });
  const trailing = (await call('create a trailing-stop plan', 'POST', '/plans', 201, TRAILING)).body.planId as string;
  await call('list the plans', 'GET', '/plans', 200);
  await call('read a plan', 'GET', `/plans/${bracket}`, 200);
  // The bracket's entry fills and the trailing stop's price rises: the watcher's run arms the exit and trails.
  await control.ltp('NSE', 'M&M-EQ', 1480);
  await control.ltp('NSE', 'WIPRO-EQ', 1530);
  // The broker refuses the bracket's exit once: the watcher's run releases its journal entry, the next arms it.
  await control.fault({ operation: 'PlaceOCOOrder', kind: 'notOk', times: 1 });
  await step("the watcher: the broker refuses a plan's exit", () => stack.watch());
  await step('the watcher runs the plans', () => stack.watch());
  const armed = (await call('read the armed plan', 'GET', `/plans/${bracket}`, 200)).body;
  if (armed.state !== 'exit-armed') throw new Error(`the bracket plan is ${armed.state}, not exit-armed`);
  await call('delete a plan', 'DELETE', `/plans/${trailing}`, 200);
  await control.ltp('NSE', 'TCS-EQ', 1480);
  await step('the watcher sees a GTT fire', () => stack.watch());
  return { bracket };
};

/** Strategies and signals: created, edited, rotated; an alert the SignalWorker acts on; its sweep; deleted. */
export const signalSteps = async (stack: LocalStack, { call, step }: Tour) => {
  const created = (await call('create a strategy', 'POST', '/strategies', 201, STRATEGY)).body;
  const id = created.strategyId as string;
  await call('list the strategies', 'GET', '/strategies', 200);
  await call('read a strategy', 'GET', `/strategies/${id}`, 200);
  await call('edit a strategy', 'PATCH', `/strategies/${id}`, 200, { ratePerMinute: 30 });
  const rotated = (await call('rotate a strategy token', 'POST', `/strategies/${id}/token`, 200)).body;
  const webhookUrl = rotated.webhookUrl as string;
  /** A TradingView alert to the strategy's URL, which the SignalWorker then takes from the queue and acts on. */
  const alert = (label: string, id: string) =>
    step(label, async () => {
      const res = await fetch(webhookUrl, {
        method: 'POST',
        headers: { 'content-type': 'text/plain' },
        body: JSON.stringify({ action: 'BUY', ticker: 'INFY', exchange: 'NSE', price: 1500, id }),
      });
      const body = (await res.json()) as Json;
      if (res.status !== 202) throw new Error(`the webhook answered ${res.status}: ${JSON.stringify(body)}`);
      await stack.signalQueue.drained();
      return body.signalId as string;
    });
  const signal = await alert('a TradingView alert, acted on', 'tour-1');
  // The broker refuses the worker's place: its journal entry is released.
  await emulatorControl(stack.emulator.url).fault({ operation: 'PlaceGTTOrder', kind: 'notOk', times: 1 });
  await alert('an alert whose order the broker refuses', 'tour-2');
  await call('make the strategy a bracket', 'PATCH', `/strategies/${id}`, 200, { action: BRACKET_ACTION });
  await alert('an alert that starts a plan', 'tour-3');
  await call('make the strategy a kill switch', 'PATCH', `/strategies/${id}`, 200, { action: { kind: 'kill-switch' } });
  await alert('an alert that turns the kill switch on', 'tour-4');
  await call('kill switch off after the alert', 'DELETE', '/kill-switch', 200);
  const acted = (await call('read a signal', 'GET', `/signals/${signal}`, 200)).body;
  if (acted.state !== 'acted') throw new Error(`the signal is ${acted.state}, not acted: ${JSON.stringify(acted)}`);
  await call('list the signals', 'GET', '/signals', 200);
  await call("the SignalWorker's sweep", 'POST', `${LOCAL_RUN_PREFIX}SignalWorker`, 200);
  await call('delete a strategy', 'DELETE', `/strategies/${id}`, 200);
};

/** The first `"al_id"` / `alId` or `planId` an answer names. */
const idIn = (answer: unknown, field: 'al_id' | 'planId'): string => {
  const found = new RegExp(`"${field}":"([^"]+)"`).exec(JSON.stringify(answer))?.[1];
  if (!found) throw new Error(`no ${field} in ${JSON.stringify(answer).slice(0, 400)}`);
  return found;
};

/**
 * Assistants and the remote MCP server: a trading assistant whose token calls every tool, each read and each write
 * (previewed, then confirmed), so each route of its `execute-api:Invoke` grant is called.
 */
export const assistantSteps = async (stack: LocalStack, { call, step }: Tour) => {
  const created = (
    await call('create an assistant', 'POST', '/assistants', 201, {
      name: 'tour',
      scopes: ['read', 'trade'],
      limits: { maxQtyPerOrder: 5, maxOrdersPerDay: 20 },
    })
  ).body;
  const id = created.assistantId as string;
  await call('list the assistants', 'GET', '/assistants', 200);
  await call('read an assistant', 'GET', `/assistants/${id}`, 200);
  const client = await step('MCP: connect with the bearer token', () =>
    remoteMcpClient(stack.api.url, created.token as string),
  );
  const write = async (name: string, args: Json) => {
    const preview = await step(`MCP: ${name} previewed`, () => tool(client, name, args));
    return step(`MCP: ${name} confirmed`, () =>
      tool(client, 'confirm', { confirmationId: preview.confirmationId as string }),
    );
  };
  const gtt = idIn(await write('place_gtt', { ...PLACE, qty: 1 }), 'al_id');
  await write('modify_gtt', { alId: gtt, ...PLACE, qty: 2 });
  await write('change_gtt', { alId: gtt, d: '1480' });
  const oco = idIn(await write('place_oco', OCO), 'al_id');
  await write('modify_oco', { alId: oco, ...OCO, stopLoss: { ...OCO.stopLoss, trigger: '1405' } });
  await write('change_oco', { alId: oco, stopLoss: { trigger: '1410' } });
  await write('cancel_gtt', { alId: oco });
  const plan = idIn(await write('create_plan', { ...BRACKET, entry: { ...BRACKET.entry, tsym: 'INFY-EQ' } }), 'planId');
  const reads: [string, Json][] = [
    ['pending_gtts', {}],
    ['get_gtt', { alId: gtt }],
    ['triggered_gtts', {}],
    ['order_book', {}],
    ['get_positions', {}],
    ['risk_limits', {}],
    ['coverage', {}],
    ['plans', {}],
    ['plans', { planId: plan }],
    ['strategies', {}],
    ['signals', {}],
    ['events', {}],
    ['session', {}],
    ['kill_switch_status', {}],
    ['quote', { exch: 'NSE', tsym: 'INFY-EQ' }],
    ['client_details', {}],
  ];
  for (const [name, args] of reads) await step(`MCP: ${name}`, () => tool(client, name, args));
  // The settings: a far loss limit set and cleared, coverage left off (PUT /risk, PUT /positions/coverage).
  await write('set_risk_limits', { dayLossLimit: 10_000_000 });
  await write('set_risk_limits', { off: true });
  await write('set_coverage', { watch: false });
  await write('cancel_plan', { planId: plan });
  await write('cancel_gtt', { alId: gtt });
  // A long of 1 ITC-EQ (a buy GTT that fires), closed by the assistant (POST /positions/close).
  const market = emulatorControl(stack.emulator.url);
  await market.ltp('NSE', 'ITC-EQ', 1500);
  await call('place a GTT the assistant closes', 'POST', '/gtt-orders', 201, { ...SAMPLE_ORDER, tsym: 'ITC-EQ' });
  await market.ltp('NSE', 'ITC-EQ', 1489);
  await write('close_position', { exch: 'NSE', tsym: 'ITC-EQ', prd: 'C' });
  await step('MCP: kill_switch_on', () => tool(client, 'kill_switch_on', { mode: 'keep-exits' }));
  await write('kill_switch_off', {});
  await step('MCP: disconnect', () => client.close());
  await call('rotate an assistant token', 'POST', `/assistants/${id}/token`, 200);
  await call('delete an assistant', 'DELETE', `/assistants/${id}`, 200);
};

/** The kill switch on (keep-exits, then cancel-all), read, and off. */
export const killSwitchSteps = async ({ call }: Tour) => {
  await call('place a GTT the kill switch cancels', 'POST', '/gtt-orders', 201, { ...SAMPLE_ORDER, tsym: 'SBIN-EQ' });
  await call('kill switch on, keep exits', 'POST', '/kill-switch', 200, { mode: 'keep-exits' });
  await call('kill switch read', 'GET', '/kill-switch', 200);
  await call('kill switch off', 'DELETE', '/kill-switch', 200);
  await call('kill switch on, cancel all', 'POST', '/kill-switch', 200, { mode: 'cancel-all' });
  await call('kill switch off again', 'DELETE', '/kill-switch', 200);
};

/**
 * The session: its health (route and schedule), the trader's logout, the OAuth login. Each in `part` of its own: a
 * step refused does not hide the next.
 */
export const sessionSteps = async (
  stack: LocalStack,
  { call, step }: Tour,
  part: (run: () => Promise<unknown>) => Promise<void>,
) => {
  await part(() => call('read the session', 'GET', '/session', 200));
  await part(() => call("the SessionHealth's schedule", 'POST', `${LOCAL_RUN_PREFIX}SessionHealth`, 200));
  await part(() => call('log out', 'POST', '/session/logout', 200));
  await part(() => step('the OAuth login', () => stack.renew()));
};

/** The classic deployment's session: the scheduled TOTP login, then the end-of-day logout of that session. */
export const totpSessionSteps = async ({ call }: Tour) => {
  await call('the TOTP SessionRenewal', 'POST', `${LOCAL_RUN_PREFIX}SessionRenewal`, 200);
  await call('the end-of-day logout', 'POST', `${LOCAL_RUN_PREFIX}SessionLogout`, 200);
};
