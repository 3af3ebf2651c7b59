/**
 * The system model's changes beyond the plain ones (system-commands.ts): OCO PUTs and PATCHes (either leg's trigger,
 * price or quantity; with and without keys and If-Match; with broker faults), changes of an order whose place is
 * still unknown (its reply lost or its broker late: the trader finds it in GET /gtt-orders and PATCHes or PUTs it,
 * then the place's key is retried after its late window), and a change's key sent again while that change is in
 * flight at a slow broker, followed by another change under the same If-Match.
 */
import fc from 'fast-check';

import { checkResolved, fail, ordersOf } from './system-invariants.js';
import {
  arrivals,
  arrived,
  change,
  type ChangeHow,
  D,
  etagOf,
  type Fault,
  faultLabel,
  gttBody,
  ocoBody,
  patchBody,
  patchChanges,
  PLACE_HOW,
  placeIntent,
  qty,
  send,
  switchOff,
  target,
  waitFor,
  withFault,
  WRITE_FAULTS,
} from './system-orders.js';
import {
  applyChanges,
  type Changes,
  Command,
  keyOf,
  nextId,
  type Tracked,
  trackedOf,
  windowPassed,
} from './system-state.js';
import { request, SETTLE_MS, sleep, SLOW_MS } from './system-world.js';

const TT = ['1600', '1610', '1620'] as const;
const ST = ['1400', '1390', '1410'] as const;

/** A change to one OCO leg: its trigger and price, or both legs' quantity. */
export const ocoChanges = fc.oneof(
  fc.constantFrom(...ST).map((v): Changes => ({ st: v, sp: v })),
  fc.constantFrom(...TT).map((v): Changes => ({ tt: v, tp: v })),
  qty.map((q): Changes => ({ tq: String(q), sq: String(q) })),
);
type LegPatch = { trigger?: string; order?: { prc?: string; qty?: number } };
const legPatch = (trigger?: string, prc?: string, q?: string): LegPatch | undefined => {
  const order = { ...(prc ? { prc } : {}), ...(q ? { qty: Number(q) } : {}) };
  if (!trigger && !prc && !q) return undefined;
  return { ...(trigger ? { trigger } : {}), ...(prc || q ? { order } : {}) };
};
export const ocoPatchBody = (c: Changes) => {
  const target = legPatch(c.tt, c.tp, c.tq);
  const stopLoss = legPatch(c.st, c.sp, c.sq);
  return { ...(target ? { target } : {}), ...(stopLoss ? { stopLoss } : {}) };
};
/** A whole OCO (PUT): the tag as the trader sees it, both legs. */
const ocoPutBody = (tag: string | undefined, tt: string, st: string, q: number) => {
  const body = ocoBody(tag, q);
  body.target.trigger = tt;
  body.target.order.prc = tt;
  body.stopLoss.trigger = st;
  body.stopLoss.order.prc = st;
  return body;
};
const ocoPutChanges = (tt: string, st: string, q: number): Changes => ({
  tt,
  tp: tt,
  tq: String(q),
  st,
  sp: st,
  sq: String(q),
});

/** A PUT or PATCH of an OCO, with a fault on the broker's ModifyOCOOrder. */
const ocoChange = fc
  .record({
    i: fc.nat(),
    put: fc.boolean(),
    changes: ocoChanges,
    tt: fc.constantFrom(...TT),
    st: fc.constantFrom(...ST),
    q: qty,
    ifMatch: fc.boolean(),
    key: fc.boolean(),
    fault: WRITE_FAULTS,
  })
  .map(
    ({ i, put, changes, tt, st, q, ifMatch, key, fault }) =>
      new Command(
        put ? 'modify OCO (PUT)' : 'PATCH OCO',
        `${put ? `PUT OCO #${i} ${tt}/${st} x${q}` : `PATCH OCO #${i} ${JSON.stringify(changes)}`}${ifMatch ? ' If-Match' : ''}${key ? ' keyed' : ''}${faultLabel(fault)}`,
        async (s) => {
          const order = await target(s, i, ['oco']);
          if (!order) return;
          const etag = ifMatch ? await etagOf(s, order.alId) : undefined;
          const how: ChangeHow = put
            ? { method: 'PUT', body: ocoPutBody(order.bodyTag, tt, st, q), changes: ocoPutChanges(tt, st, q), key }
            : { method: 'PATCH', body: ocoPatchBody(changes), changes, key };
          await withFault(s, 'ModifyOCOOrder', fault, async () => {
            applyChanges(order, [await change(s, order, { ...how, ifMatch: etag })]);
          });
        },
      ),
  );

/** A place's reply lost with the broker acting (at once, or late): its outcome unknown to the caller. */
const LOST: Fault[] = [
  { kind: 'drop', executed: true },
  { kind: 'delay', delayMs: SLOW_MS, late: true },
];

/**
 * A place whose outcome is unknown (its reply lost, the broker acting), then changed: the trader sees the order in
 * GET /gtt-orders and PATCHes it (with or without a key or If-Match) or PUTs it repeating the tag it sees; then
 * (`retry`) the place's key is sent again after its late window: it answers that order, never a second one.
 */
const unknownPlaceChange = fc
  .record({
    oco: fc.boolean(),
    how: PLACE_HOW,
    lost: fc.constantFrom(...LOST),
    put: fc.boolean(),
    changes: patchChanges,
    ocoChanges,
    q: qty,
    d: fc.constantFrom(...D),
    key: fc.boolean(),
    ifMatch: fc.boolean(),
    retry: fc.oneof({ weight: 3, arbitrary: fc.constant(true) }, fc.constant(false)),
  })
  .map(
    ({ oco, how, lost, put, changes, ocoChanges: oc, q, d, key, ifMatch, retry }) =>
      new Command(
        'change of an unknown place',
        `place ${oco ? 'oco' : 'gtt'}${how.tagClass === 'short' ? '' : ` tag ${how.tagClass}`}${faultLabel(lost)}, then ${put ? 'PUT' : 'PATCH'} of it as listed${key ? ' keyed' : ''}${ifMatch ? ' If-Match' : ''}${retry ? ', the place retried after its window' : ''}`,
        async (s) => {
          await switchOff(s);
          const kind = oco ? 'oco' : 'gtt';
          const intent = placeIntent(s, kind, 5, '1490', { ...how, key: true });
          const placed = await withFault(s, oco ? 'PlaceOCOOrder' : 'PlaceGTTOrder', lost, async () => {
            await send(s, intent);
          }).then(() => intent.verdicts.at(-1));
          if (placed === 'not_executed') return;
          // The broker's order of the place, once it has acted (a late broker acts after the delay).
          const found = await waitFor(() => ordersOf(s, intent).find((g) => g.state === 'pending'), SLOW_MS + 3_000);
          if (!found) return void s.log.push(`  the broker holds nothing of ${intent.label} yet`);
          const list = await request(s.w, 'GET', '/gtt-orders');
          const seen = (list.body.orders as { al_id: string; tag?: string }[] | undefined)?.find(
            (o) => o.al_id === found.al_id,
          );
          if (!seen) return void s.log.push(`  GET /gtt-orders: ${list.status}, ${found.al_id} not listed`);
          const order: Tracked = trackedOf(s, found.al_id, intent);
          if (!s.orders.includes(order)) order.placeOpen = intent;
          const etag = ifMatch ? await etagOf(s, order.alId) : undefined;
          const how2: ChangeHow = oco
            ? put
              ? {
                  method: 'PUT',
                  body: ocoPutBody(seen.tag, '1610', '1390', q),
                  changes: ocoPutChanges('1610', '1390', q),
                  key,
                }
              : { method: 'PATCH', body: ocoPatchBody(oc), changes: oc, key }
            : put
              ? { method: 'PUT', body: gttBody(seen.tag, q, d), changes: { qty: String(q), d }, key }
              : { method: 'PATCH', body: patchBody(changes), changes, key };
          const result = await change(s, order, { ...how2, ifMatch: etag });
          applyChanges(order, [result]);
          if (result.a.verdict !== 'not_executed' && !s.orders.includes(order)) s.orders.push(order);
          if (!retry) return;
          await sleep(intent.actedAt + SETTLE_MS - Date.now());
          const a = await send(s, intent, `retry ${intent.label} after its window`);
          if (windowPassed(intent) && !intent.unstamped) checkResolved(s, intent, a);
        },
      ),
  );

/**
 * A change's key sent again while that change is in flight (the broker slow to modify): the retry is told it is in
 * flight (409), and another change under the same If-Match is refused while the first holds the order; never both
 * 2xx under one If-Match (invariant 4), and what was acknowledged is the broker's.
 */
const changeKeyInFlight = fc
  .record({
    i: fc.nat(),
    oco: fc.oneof({ weight: 2, arbitrary: fc.constant(false) }, fc.constant(true)),
    first: patchChanges,
    second: patchChanges,
    ocoFirst: ocoChanges,
    ocoSecond: ocoChanges,
    delayMs: fc.constantFrom(1_200, 1_700),
    secondKey: fc.boolean(),
  })
  .map(
    ({ i, oco, first, second, ocoFirst, ocoSecond, delayMs, secondKey }) =>
      new Command(
        'change key again in flight',
        `PATCH ${oco ? 'OCO ' : ''}#${i} keyed If-Match, slow (${delayMs} ms); its key again; another PATCH, same If-Match${secondKey ? ' keyed' : ''}`,
        async (s) => {
          await switchOff(s);
          const order = await target(s, i, [oco ? 'oco' : 'gtt']);
          if (!order) return;
          const etag = await etagOf(s, order.alId);
          if (!etag) return;
          const [c1, c2] = oco ? [ocoFirst, ocoSecond] : [first, second];
          const body = (c: Changes) => (oco ? ocoPatchBody(c) : patchBody(c));
          const operation = oco ? 'ModifyOCOOrder' : 'ModifyGTTOrder';
          const key = keyOf(nextId());
          const from = arrivals(s, operation);
          await s.w.control.fault({ operation, kind: 'delay', delayMs, times: 1 });
          try {
            const how1: ChangeHow = {
              method: 'PATCH',
              body: body(c1),
              changes: c1,
              key,
              ifMatch: etag,
              concurrent: true,
            };
            const p1 = change(s, order, how1);
            // The same request again once the first is at the broker (a client's retry): in flight, never sent.
            if (await waitFor(() => arrived(s, operation, from), 4_000)) {
              s.log.push(`  ${operation} at the broker: its key again, then another PATCH`);
              await change(s, order, { ...how1, changes: {} }).then((r) => s.log.push(`  (again: ${r.a.status})`));
            }
            const how2: ChangeHow = {
              method: 'PATCH',
              body: body(c2),
              changes: c2,
              key: secondKey,
              ifMatch: etag,
              concurrent: true,
            };
            const results = await Promise.all([p1, change(s, order, how2)]);
            applyChanges(order, results);
            if (results.every((r) => r.a.verdict === 'ok' && !r.a.replayed))
              fail(s, 4, `two PATCHes of ${order.alId} with the same If-Match ${etag} both answered 2xx`);
          } finally {
            await s.w.control.clearFaults();
          }
        },
      ),
  );

export const changeCommands = { ocoChange, unknownPlaceChange, changeKeyInFlight };
