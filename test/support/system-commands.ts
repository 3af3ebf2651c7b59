/**
 * The system model's HTTP order commands (system-model.ts): places and OCO places with and without keys, with tags of
 * every class (system-state.ts) and broker faults, the same key again (after, or at once), PUT modifies, PATCHes with
 * and without If-Match and keys, two PATCHes of one order racing, cancels of singles and OCOs, retries of writes
 * whose outcome is open (a read of the broker's books failing too), and an order function killed mid-write (its
 * broker call slow and acted on late, its DynamoDB completion lost). OCO changes, changes of orders whose place is
 * unknown and a change's key retried in flight are in system-changes.ts.
 */
import fc from 'fast-check';

import { placeGttOrder } from '../../functions/orders/operations.js';
import { lambdaContext } from '../../local/lambda-context.js';
import { httpApiEvent } from './events.js';
import { checkPlaceNoEffect, checkResolved, fail } from './system-invariants.js';
import {
  armRead,
  change,
  D,
  etagOf,
  type Fault,
  faultLabel,
  gttBody,
  howLabel,
  patchBody,
  patchChanges,
  pick,
  PLACE_HOW,
  placeIntent,
  qty,
  READ_FAULTS,
  readLabel,
  send,
  sendChecked,
  target,
  withFault,
  WRITE_FAULTS,
} from './system-orders.js';
import {
  applyChanges,
  type Changes,
  Command,
  type Intent,
  keyOf,
  late,
  newIntent,
  nextId,
  record,
  type Sys,
  unresolved,
  windowPassed,
} from './system-state.js';
import { answerOf, KILLED_DEADLINE_MS, SLOW_MS } from './system-world.js';

/** Writes that can be sent again as they were: those with a key (a keyless place again is another order). */
const intentsOf = (s: Sys, kinds: Intent['kind'][]) =>
  s.intents.filter((i) => kinds.includes(i.kind) && i.path && i.key);

const place = fc
  .record({
    kind: fc.constantFrom<'gtt' | 'oco'>('gtt', 'gtt', 'oco'),
    qty,
    d: fc.constantFrom(...D),
    fault: WRITE_FAULTS,
    how: PLACE_HOW,
  })
  .map(
    ({ kind, qty, d, fault, how }) =>
      new Command(
        kind === 'gtt' ? 'place' : 'place OCO',
        `place ${kind} x${qty}${howLabel(how)}${faultLabel(fault)}`,
        (s) =>
          withFault(s, kind === 'gtt' ? 'PlaceGTTOrder' : 'PlaceOCOOrder', fault, async () => {
            const intent = placeIntent(s, kind, qty, d, how);
            if ((await send(s, intent)).verdict === 'not_executed') checkPlaceNoEffect(s, intent);
          }),
      ),
  );

/** The same key and body again: after the first (a client's retry), or two at once (a double click). */
const repeat = fc.record({ i: fc.nat(), atOnce: fc.boolean(), qty, d: fc.constantFrom(...D) }).map(
  ({ i, atOnce, qty, d }) =>
    new Command('repeat key', atOnce ? `the same new key twice at once` : `repeat place #${i}`, async (s) => {
      if (atOnce) {
        const intent = placeIntent(s, 'gtt', qty, d);
        await Promise.all([send(s, intent, `${intent.label} (1)`), send(s, intent, `${intent.label} (2)`)]);
        return;
      }
      const intent = pick(intentsOf(s, ['gtt', 'oco']), i);
      if (intent) await send(s, intent, `again ${intent.label}`);
    }),
);

const modify = fc.record({ i: fc.nat(), qty, d: fc.constantFrom(...D), key: fc.boolean(), fault: WRITE_FAULTS }).map(
  ({ i, qty, d, key, fault }) =>
    new Command('modify (PUT)', `PUT #${i} x${qty} d${d}${key ? ' keyed' : ''}${faultLabel(fault)}`, async (s) => {
      const order = await target(s, i);
      if (!order) return;
      await withFault(s, 'ModifyGTTOrder', fault, async () => {
        const body = gttBody(order.bodyTag, qty, d);
        applyChanges(order, [await change(s, order, { method: 'PUT', body, changes: { qty: String(qty), d }, key })]);
      });
    }),
);

const patch = fc
  .record({
    i: fc.nat(),
    changes: patchChanges,
    ifMatch: fc.boolean(),
    key: fc.boolean(),
    fault: WRITE_FAULTS,
    read: READ_FAULTS,
  })
  .map(
    ({ i, changes, ifMatch, key, fault, read }) =>
      new Command(
        ifMatch ? 'PATCH If-Match' : 'PATCH',
        `PATCH #${i} ${JSON.stringify(changes)}${ifMatch ? ' If-Match' : ''}${key ? ' keyed' : ''}${faultLabel(fault)}${readLabel(read)}`,
        async (s) => {
          const order = await target(s, i);
          if (!order) return;
          const etag = ifMatch ? await etagOf(s, order.alId) : undefined;
          await withFault(s, 'ModifyGTTOrder', fault, async () => {
            // The PATCH's own read of the order may fail too (or the fired list, or quotes: never used).
            await armRead(s, read);
            const body = patchBody(changes);
            applyChanges(order, [await change(s, order, { method: 'PATCH', body, changes, key, ifMatch: etag })]);
          });
        },
      ),
  );

/**
 * Two PATCHes of one order at once (the broker slow to modify, sometimes): never both 2xx under one If-Match. Half
 * the time one changes the quantity and one the trigger (a lost update shows).
 */
const twoChanges = fc.oneof(
  fc.tuple(
    qty.map((q): Changes => ({ qty: String(q) })),
    fc.constantFrom(...D).map((d): Changes => ({ d })),
  ),
  fc.tuple(patchChanges, patchChanges),
);

const patchRace = fc.record({ i: fc.nat(), changes: twoChanges, ifMatch: fc.boolean(), slow: fc.boolean() }).map(
  ({ i, changes: [a, b], ifMatch, slow }) =>
    new Command(
      'two PATCHes at once',
      `two PATCHes of #${i} at once ${JSON.stringify(a)} ${JSON.stringify(b)}${ifMatch ? ' If-Match' : ''}${slow ? ' slow' : ''}`,
      async (s) => {
        const order = await target(s, i);
        if (!order) return;
        const etag = ifMatch ? await etagOf(s, order.alId) : undefined;
        if (slow) await s.w.control.fault({ operation: 'ModifyGTTOrder', kind: 'delay', delayMs: 400, times: 2 });
        const results = await Promise.all(
          [a, b].map((changes) =>
            change(s, order, {
              method: 'PATCH',
              body: patchBody(changes),
              changes,
              key: false,
              ifMatch: etag,
              concurrent: true,
            }),
          ),
        );
        if (slow) await s.w.control.clearFaults();
        applyChanges(order, results);
        if (etag && results.every((r) => r.a.verdict === 'ok'))
          fail(s, 4, `two PATCHes of ${order.alId} with the same If-Match ${etag} both answered 2xx`);
      },
    ),
);

const cancel = fc
  .record({
    i: fc.nat(),
    key: fc.boolean(),
    fault: WRITE_FAULTS,
  })
  .map(
    ({ i, key, fault }) =>
      new Command('cancel', `cancel #${i}${key ? ' keyed' : ''}${faultLabel(fault)}`, async (s) => {
        const order = await target(s, i, ['gtt', 'oco'], true);
        if (!order) return;
        const n = nextId();
        const intent = newIntent(s, {
          label: `cancel ${order.kind} ${order.alId}${key ? ' keyed' : ''}`,
          kind: 'cancel',
          order,
          method: 'DELETE',
          path: `/gtt-orders/${order.alId}`,
          headers: key ? { 'Idempotency-Key': keyOf(n) } : {},
          ...(key ? { key: keyOf(n) } : {}),
        });
        await withFault(s, 'CancelGTTOrder', fault, async () => {
          await sendChecked(s, intent);
        });
      }),
  );

/**
 * A write whose outcome is open, sent again with its key (the broker's books unreadable, now and then); once its
 * late window has passed it must be answered, unless the books it is resolved by failed to read: a read fault, or
 * the session logged out (the books answer SESSION_EXPIRED until a login; the sequence's settle retries it then).
 */
const retry = fc.record({ i: fc.nat(), read: READ_FAULTS }).map(
  ({ i, read }) =>
    new Command('retry open outcome', `retry open write #${i}${readLabel(read)}`, async (s) => {
      const intent = pick(unresolved(s), i);
      if (!intent) return;
      await armRead(s, read);
      const passed = windowPassed(intent);
      const loggedOut = s.loggedOut !== undefined;
      const a = await send(s, intent, `retry ${intent.label}`);
      if (read) await s.w.control.clearFaults();
      if (passed && !intent.unstamped && !read && !loggedOut) checkResolved(s, intent, a);
      if (a.verdict === 'not_executed' && (intent.kind === 'gtt' || intent.kind === 'oco'))
        checkPlaceNoEffect(s, intent);
    }),
);

/**
 * An order function killed mid-write, invoked with a short deadline: its broker call slow and acted on late (or at
 * once, or never), and/or its DynamoDB writes from the broker call on never landing. Its caller hears nothing.
 */
const killedPlace = fc
  .record({ qty, broker: fc.constantFrom('late', 'acted', 'never'), lost: fc.boolean() })
  .filter(({ broker, lost }) => lost || broker !== 'acted')
  .map(
    ({ qty, broker, lost }) =>
      new Command(
        'killed order function',
        `place killed mid-write (broker ${broker}, completion ${lost ? 'lost' : 'kept'})`,
        async (s) => {
          const intent = placeIntent(s, 'gtt', qty, '1490');
          const fault: Fault =
            broker === 'acted'
              ? undefined
              : { kind: 'delay', delayMs: SLOW_MS, ...(broker === 'late' ? { late: true } : {}) };
          const started = Date.now();
          await withFault(s, 'PlaceGTTOrder', fault, async () => {
            s.w.killOnWrite = lost;
            try {
              const event = httpApiEvent(placeGttOrder, {
                body: intent.body,
                headers: { 'idempotency-key': intent.key! },
              });
              const handler = s.w.stack.handlers.get('PlaceGTTOrder')!;
              const res = (await handler(event, lambdaContext('PlaceGTTOrder', KILLED_DEADLINE_MS))) as {
                statusCode: number;
                body: string;
              };
              s.log.push(
                `(the killed function would have answered ${res.statusCode} ${answerOf(res.statusCode, JSON.parse(res.body) as Record<string, unknown>).code ?? ''})`,
              );
            } finally {
              s.w.killOnWrite = false;
              s.w.proxy.revive();
            }
          });
          // The caller never heard: the outcome is unknown from the moment it was sent.
          record(s, intent, { status: 0, body: {}, verdict: 'unknown', code: 'KILLED', replayed: false }, started);
          late(s, started, SLOW_MS);
        },
      ),
  );

export const orderCommands = { place, repeat, modify, patch, patchRace, cancel, retry, killedPlace };
