/**
 * The model-based test of the whole system (fast-check async commands): random sequences of what callers, alerts,
 * plans, the market, brokers and crashing processes do to the function set (startLocalStack: the local HTTP API, the
 * real handlers, dynalite, the local Secrets Manager, EventBridge and signal queue, the emulator), with the promises
 * of system-invariants.ts checked after every step against the emulator's own books and request log (and
 * system-positions.ts: GET /positions is the emulator's PositionBook).
 *
 * The commands are in system-commands.ts (HTTP order writes, a killed order function), system-changes.ts (OCO PUTs
 * and PATCHes, changes of orders whose place is unknown, a change's key again in flight), system-halts.ts (the kill
 * switch in both modes, keep-exits during an exit's change, edits of a plan's orders, reads while the broker's reads
 * fail), system-actors.ts (signals, plans and watcher runs, logout and login, the market, outside orders),
 * system-signals.ts (alerts of every action kind, several symbols, strategy edits between deliveries), system-mcp.ts
 * and system-mcp-reads.ts (assistants over POST /mcp: previews and confirms within limits, read tools, their routes)
 * and system-reads.ts (every read route, plan cancels, scheduled runs), over the order vocabulary of
 * system-orders.ts (faults, bodies, tag classes, changes); what each drives against the manifest in
 * system-coverage.ts; the sequence's state in system-state.ts; the world (stack, DynamoDB proxy, killable processes)
 * in system-world.ts. Each sequence ends by letting every late broker act happen, turning the switch off, logging in,
 * and retrying every write whose outcome was left open after its late window (invariant 5). Used by
 * test/integration/system-model.test.ts (a
 * bounded, seeded set) and scripts/system-model.ts (a long run with counts and a shrunk counterexample).
 */
import fc from 'fast-check';

import { createStrategy, otherCommands as o } from './system-actors.js';
import { changeCommands as ch } from './system-changes.js';
import { closeCommands as cl } from './system-close.js';
import { orderCommands as c } from './system-commands.js';
import { coverGapCommands as cg } from './system-cover-gap.js';
import { newBroker } from './system-days.js';
import { exitCommands as x } from './system-exit.js';
import { exitGapCommands as xg } from './system-exit-gap.js';
import { exitPlusCommands as xp } from './system-exit-plus.js';
import { haltCommands as h } from './system-halts.js';
import { checkAll, checkHonest, checkResolved } from './system-invariants.js';
import { mcpCommands as m } from './system-mcp.js';
import { mcpReadCommands as mr } from './system-mcp-reads.js';
import { mcpRiskCommands as mk } from './system-mcp-risk.js';
import { optionCommands as op } from './system-options.js';
import { send } from './system-orders.js';
import { checkPositions } from './system-positions.js';
import { protectCommands as pc } from './system-protect.js';
import { readCommands as r } from './system-reads.js';
import { riskCommands as rk } from './system-risk.js';
import { signalCommands as g } from './system-signals.js';
import { type Sys, unresolved } from './system-state.js';
import { request, restoreSession, SETTLE_MS, sleep, systemStats, type World } from './system-world.js';

/**
 * Weighted by repetition: places, PATCHes, alerts and market moves most; the slow killed processes least; the ways
 * money was lost before (a change of an order whose place is unknown, a change's key again in flight, keep-exits
 * during an exit's change, a strategy edited between deliveries, an assistant's confirms and changes) more than once.
 * What each command kind drives, against the manifest's ways in: system-coverage.ts
 * (test/unit/system-coverage.test.ts).
 */
export const COMMANDS = [
  c.place,
  c.place,
  c.place,
  c.repeat,
  c.modify,
  c.patch,
  c.patch,
  c.patchRace,
  c.cancel,
  c.retry,
  c.killedPlace,
  ch.ocoChange,
  ch.ocoChange,
  ch.unknownPlaceChange,
  ch.unknownPlaceChange,
  ch.changeKeyInFlight,
  ch.changeKeyInFlight,
  o.alert,
  o.alert,
  o.duplicate,
  o.redeliver,
  o.killedWorker,
  o.plan,
  o.watcherRun,
  o.killedRun,
  h.killSwitch,
  h.killSwitch,
  h.keepExitsDuringChange,
  h.keepExitsDuringChange,
  h.planEdit,
  h.read,
  o.logout,
  o.login,
  o.ltp,
  o.ltp,
  o.fills,
  o.outside,
  // Alerts of every action kind, strategy edits (between two deliveries of one alert too): system-signals.ts.
  g.waysAlert,
  g.waysAlert,
  g.strategyEdit,
  g.editBetween,
  g.editBetween,
  g.editBetween,
  g.tokenChange,
  // Assistants over POST /mcp: system-mcp.ts.
  m.mcpPlace,
  m.mcpPlace,
  m.mcpConfirm,
  m.mcpBurst,
  m.mcpBurst,
  m.mcpBurst,
  m.mcpChange,
  m.mcpChange,
  m.mcpChange,
  m.mcpOther,
  mr.mcpRead,
  mr.assistantAdmin,
  // The day's limits and coverage set by assistants (an exit-only one refused): system-mcp-risk.ts.
  mk.mcpSettings,
  // The exit-only assistant (invariant 10): system-exit.ts.
  x.mcpExit,
  x.mcpExit,
  x.mcpExitChange,
  xp.mcpExitTrailing,
  xg.mcpExitOwed,
  // Every read route (faults on the broker's reads), a plan cancelled, the scheduled runs: system-reads.ts.
  r.read,
  r.read,
  r.cancelPlan,
  r.scheduled,
  // The day's limits, crossed or not, and a watcher run: system-risk.ts.
  rk.riskLimit,
  // Coverage and autoCover switched on or off, then a watcher run: system-protect.ts.
  pc.coverage,
  // A position closed now (POST /positions/close): system-close.ts.
  cl.closePosition,
  cl.closePosition,
  cl.mcpClosePosition,
  cg.coverOwed,
  // Option plans by the API and /mcp, NIFTY's index moved across their levels: system-options.ts.
  op.optionPlan,
  op.mcpOptionPlan,
  op.indexMove,
  op.indexMove,
] as fc.Arbitrary<fc.AsyncCommand<object, Sys>>[];

/** Late broker acts of the last sequence (a failed one too) land before the next one starts. */
const carried = { lateUntil: 0 };

/** A fresh world for one sequence: the emulator reset, the demo session, no plans, the switch off, a new strategy. */
const freshSys = async (w: World, skip: ReadonlySet<number>): Promise<Sys> => {
  await sleep(carried.lateUntil - Date.now());
  await w.stack.signalQueue.drained();
  w.killOnWrite = false;
  w.killNextActor = false;
  w.proxy.revive();
  await w.control.reset();
  await newBroker(w);
  restoreSession(w.stack);
  for (const stored of await w.store.list()) await w.store.remove(stored.plan.planId, stored.version);
  for (const tsym of ['M&M-EQ', 'SBIN-EQ']) await w.control.ltp('NSE', tsym, 1500);
  const s: Sys = {
    w,
    intents: [],
    orders: [],
    halt: 'off',
    kept: new Map(),
    claims: [],
    lateUntil: 0,
    alerts: 0,
    log: [],
    skip,
  };
  await request(w, 'DELETE', '/kill-switch');
  await createStrategy(s);
  return s;
};

/**
 * The sequence's end: every late act landed, the switch off, logged in, and each open write retried with its key once
 * its late window has passed: answered (the order, or a clear not-executed error), never a second order.
 */
const settle = async (s: Sys): Promise<void> => {
  await sleep(s.lateUntil - Date.now());
  await s.w.control.clearFaults();
  if (s.loggedOut) {
    await s.w.stack.renew();
    s.loggedOut = undefined;
  }
  const off = await request(s.w, 'DELETE', '/kill-switch');
  if (off.verdict !== 'ok') throw new Error(`settle: DELETE /kill-switch answered ${off.status} ${off.code}`);
  s.halt = 'off';
  s.log.push('-- settle --');
  for (const intent of unresolved(s)) {
    await sleep(intent.actedAt + SETTLE_MS - Date.now());
    const a = await send(s, intent, `final retry ${intent.label}`);
    // A place whose tag left no room for its stamp can only be reported (docs/explanation/order-safety.md).
    if (!intent.unstamped) checkResolved(s, intent, a);
  }
  await s.w.stack.signalQueue.drained();
  checkAll(s);
  await checkPositions(s);
  checkHonest(s);
};

/** The property: sequences of up to maxCommands drawn from `commands` (COMMANDS, or a weighting: system-weights.ts). */
export const systemModel = (
  w: World,
  maxCommands: number,
  skip: ReadonlySet<number> = new Set(),
  commands: fc.Arbitrary<fc.AsyncCommand<object, Sys>>[] = COMMANDS,
) =>
  fc.asyncProperty(fc.commands(commands, { maxCommands, size: 'max' }), async (cmds) => {
    const s = await freshSys(w, skip);
    systemStats.sequences += 1;
    try {
      await fc.asyncModelRun(() => ({ model: {}, real: s }), cmds);
      await settle(s);
    } finally {
      carried.lateUntil = s.lateUntil;
      // SYSTEM_MODEL_TRACE=1: each sequence's steps and answers, as it ended.
      if (process.env.SYSTEM_MODEL_TRACE) console.log(`sequence ${systemStats.sequences}:\n  ${s.log.join('\n  ')}`);
    }
  });
