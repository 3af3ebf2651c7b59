/**
 * The system model's kill switch and plan edits (system-model.ts): the switch on in either mode (cancel-all, the
 * default, or keep-exits) or off at any moment, its sweep's reads of the pending list failing now and then, on while a
 * place is on its way, and keep-exits turned on while an exit's change is at a slow broker (an OCO's PATCH or PUT, or
 * a trailing plan's stop moved by a watcher run); the trader's own edits of a plan's orders (PATCH, PUT, cancel,
 * with and without keys); and reads (the pending and fired lists, quotes, one order) while the broker's reads fail.
 */
import fc from 'fast-check';

import type { Order } from '../../emulator/state/state.js';
import { planIdOf } from '../../functions/plans/stamps.js';
import { bracketInput, trailingInput } from './system-actors.js';
import { ocoChanges, ocoPatchBody } from './system-changes.js';
import {
  armRead,
  arrivals,
  arrived,
  change,
  D,
  gttBody,
  pick,
  qty,
  READ_FAULTS,
  readLabel,
  send,
  sendChecked,
  switchOff,
  target,
  waitFor,
  withFault,
} from './system-orders.js';
import {
  applyChanges,
  type Changes,
  Command,
  GTT_FIELDS,
  keyOf,
  newIntent,
  nextId,
  OCO_FIELDS,
  record,
  type Sys,
  tagOf,
  type Tracked,
} from './system-state.js';
import { request } from './system-world.js';

type Mode = 'cancel-all' | 'keep-exits' | undefined;

/**
 * POST /kill-switch (no body: cancel-all by default). Whatever it answered, the sweep may have cancelled anything
 * pending (keep-exits too: it decides what an exit is); a cancel-all releases every exit kept before, a keep-exits
 * answer's `kept` is a promise (invariant 6).
 */
export const killSwitchOn = async (s: Sys, mode?: Mode): Promise<void> => {
  const at = Date.now();
  const a = await request(s.w, 'POST', '/kill-switch', mode ? { mode } : undefined);
  const sweep = a.body.sweep as { complete?: boolean; kept?: string[] } | undefined;
  for (const o of s.orders) o.mayBeGone = true;
  if (mode !== 'keep-exits') for (const kept of s.kept.values()) kept.released = true;
  for (const alId of sweep?.kept ?? []) s.kept.set(alId, { at, released: false });
  s.halt = a.verdict === 'ok' && sweep?.complete === true ? 'clean' : 'unclean';
  s.log.push(
    `kill switch on${mode ? ` (${mode})` : ''}: ${a.status} complete ${String(sweep?.complete)}${sweep?.kept?.length ? ` kept ${sweep.kept.join(', ')}` : ''}`,
  );
};

const MODES = fc.constantFrom<Mode>(undefined, 'cancel-all', 'keep-exits', 'keep-exits');

const killSwitch = fc
  .record({ what: fc.constantFrom('on', 'on', 'off', 'on during a place'), mode: MODES, read: READ_FAULTS })
  .map(
    ({ what, mode, read }) =>
      new Command(
        'kill switch',
        `kill switch ${what}${what === 'off' ? '' : ` ${mode ?? '(default mode)'}`}${what === 'on' ? readLabel(read) : ''}`,
        async (s) => {
          if (what === 'off') {
            const a = await request(s.w, 'DELETE', '/kill-switch');
            if (a.verdict === 'ok') s.halt = 'off';
            return;
          }
          if (what === 'on') {
            await armRead(s, read);
            await killSwitchOn(s, mode);
            if (read) await s.w.control.clearFaults();
            return;
          }
          // A place whose broker is slow (it acts when the delay ends, the gateway still waiting) meets the switch.
          const n = nextId();
          const intent = newIntent(s, {
            label: `gtt ${tagOf(n)}`,
            kind: 'gtt',
            key: keyOf(n),
            tag: tagOf(n),
            method: 'POST',
            path: '/gtt-orders',
            body: gttBody(tagOf(n), 5, '1490'),
            headers: { 'Idempotency-Key': keyOf(n) },
          });
          await withFault(s, 'PlaceGTTOrder', { kind: 'delay', delayMs: 1_200 }, async () => {
            const from = arrivals(s, 'PlaceGTTOrder');
            const placing = send(s, intent);
            await waitFor(() => arrived(s, 'PlaceGTTOrder', from), 3_000);
            await killSwitchOn(s, mode);
            await placing;
          });
        },
      ),
  );

const books = (s: Sys): Order[] => [...s.w.stack.emulator.emulator.state.orders.values()];
/** The pending GTTs of the sequence's plans (their stamps start with the plan id), `step` ones only when given. */
const planOrders = (s: Sys, step?: RegExp): Order[] => {
  const plans = s.intents.filter((i) => i.planId).map((i) => `${i.planId}.`);
  return books(s).filter(
    (g) =>
      g.state === 'pending' &&
      plans.some((p) => g.remarks.startsWith(p) && (!step || step.test(g.remarks.slice(p.length)))),
  );
};

/** A plan, created through the API (its intent kept: invariant 1 counts its steps). */
const newPlan = async (s: Sys, kind: 'bracket' | 'trailing'): Promise<void> => {
  const key = keyOf(nextId());
  const body = kind === 'bracket' ? bracketInput('M&M-EQ', 2) : trailingInput('M&M-EQ');
  const intent = newIntent(s, { label: `plan ${planIdOf(key)}`, kind: 'plan', key, planId: planIdOf(key) });
  record(s, intent, await request(s.w, 'POST', '/plans', body, { 'Idempotency-Key': key }), Date.now());
};

/** An order the model changes but does not track (a plan's: its engine changes it too). */
const untracked = (g: Order): Tracked => ({
  alId: g.al_id,
  tag: '',
  kind: g.kind,
  expect: Object.fromEntries([...GTT_FIELDS, ...OCO_FIELDS].map((f) => [f, new Set<string>()])) as Tracked['expect'],
  mayBeGone: true,
});

/**
 * keep-exits turned on while an exit's change is at a slow broker: a PATCH or PUT of an OCO, or a trailing plan's
 * stop moved by a watcher run (the market risen past its step). The exit is reported kept; the change, landing after
 * the switch, must not take it away (invariant 6).
 */
const keepExitsDuringChange = fc
  .record({
    i: fc.nat(),
    trailing: fc.boolean(),
    changes: ocoChanges,
    key: fc.boolean(),
    delayMs: fc.constantFrom(1_200, 1_700),
  })
  .map(
    ({ i, trailing, changes, key, delayMs }) =>
      new Command(
        'keep-exits during a change',
        `keep-exits while ${trailing ? "a trailing plan's stop moves" : `an OCO's PATCH ${JSON.stringify(changes)}${key ? ' keyed' : ''}`} at a slow broker (${delayMs} ms)`,
        async (s) => {
          await switchOff(s);
          const operation = trailing ? 'ModifyGTTOrder' : 'ModifyOCOOrder';
          let stop: Order | undefined;
          let order: Tracked | undefined;
          if (trailing) {
            if (!planOrders(s, /^s/).length) await newPlan(s, 'trailing');
            stop = pick(planOrders(s, /^s/), i);
            if (!stop || stop.kind !== 'gtt') return;
            await s.w.control.ltp('NSE', stop.tsym, Number(stop.d) + 130);
          } else order = await target(s, i, ['oco']);
          if (!stop && !order) return;
          const from = arrivals(s, operation);
          await withFault(s, operation, { kind: 'delay', delayMs }, async () => {
            const changing = order
              ? change(s, order, { method: 'PATCH', body: ocoPatchBody(changes), changes, key, concurrent: true }).then(
                  (r) => applyChanges(order, [r]),
                )
              : s.w.stack.watch().then(
                  () => s.log.push('watcher: ok'),
                  (error: unknown) => s.log.push(`watcher: failed: ${(error as Error).message}`),
                );
            if (await waitFor(() => arrived(s, operation, from), 8_000)) {
              s.log.push(`  ${operation} at the broker: keep-exits on now`);
              await killSwitchOn(s, 'keep-exits');
            } else s.log.push(`  (no ${operation} reached the broker)`);
            await changing;
          });
        },
      ),
  );

/** The trader's own edit of one of a plan's orders: a PATCH or PUT of its stop or entry, or a cancel. */
const planEdit = fc
  .record({
    i: fc.nat(),
    what: fc.constantFrom('PATCH', 'PUT', 'cancel'),
    q: qty,
    d: fc.constantFrom(...D),
    oco: ocoChanges,
    key: fc.boolean(),
  })
  .map(
    ({ i, what, q, d, oco, key }) =>
      new Command("edit of a plan's order", `${what} of a plan's order #${i}${key ? ' keyed' : ''}`, async (s) => {
        if (!planOrders(s).length) await newPlan(s, i % 2 ? 'bracket' : 'trailing');
        const g = pick(planOrders(s), i);
        if (!g) return;
        const order = untracked(g);
        if (what === 'cancel') {
          const k = key ? keyOf(nextId()) : undefined;
          const intent = newIntent(s, {
            label: `cancel plan order ${g.al_id} (${g.remarks})`,
            kind: 'cancel',
            order,
            method: 'DELETE',
            path: `/gtt-orders/${g.al_id}`,
            headers: k ? { 'Idempotency-Key': k } : {},
            ...(k ? { key: k } : {}),
          });
          await sendChecked(s, intent, false);
          return;
        }
        const tag = g.remarks.split(' ')[0];
        const single: Changes = what === 'PUT' ? { qty: String(q), d } : { d };
        await change(
          s,
          order,
          g.kind === 'oco'
            ? { method: 'PATCH', body: ocoPatchBody(oco), changes: oco, key, concurrent: true }
            : {
                method: what === 'PUT' ? 'PUT' : 'PATCH',
                body:
                  what === 'PUT' ? { ...gttBody(tag, q, d), tsym: g.tsym, trantype: g.trantype, prc: g.prc } : { d },
                changes: single,
                key,
                concurrent: true,
              },
        );
      }),
  );

/** A read of the gateway while the broker's reads fail: nothing changes at the broker (the invariants, after). */
const read = fc
  .record({
    path: fc.constantFrom('/gtt-orders', '/gtt-orders/triggered', '/quotes?exch=NSE&tsym=M%26M-EQ', 'one order'),
    fault: READ_FAULTS,
  })
  .map(
    ({ path, fault }) =>
      new Command('read', `GET ${path}${readLabel(fault)}`, async (s) => {
        await armRead(s, fault);
        const one = path === 'one order' ? s.orders.at(-1) : undefined;
        const a = await request(
          s.w,
          'GET',
          one ? `/gtt-orders/${one.alId}` : path === 'one order' ? '/gtt-orders' : path,
        );
        s.log.push(`  ${a.status}${a.code ? ` ${a.code}` : ''}`);
        if (fault) await s.w.control.clearFaults();
      }),
  );

export const haltCommands = { killSwitch, keepExitsDuringChange, planEdit, read };
