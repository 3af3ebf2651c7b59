/**
 * Reads that grow with the pending list: one order by id (the GetGTTOrder bundle warm) at a small and a large
 * number of pending orders, against a raw `node:http` POST of the broker's pending list (what a hand-written
 * function reads to find one order: the broker has no read by id), interleaved; and the whole pending list at a
 * large N (GetPendingGTTOrder's bundle, import + first invoke): does it answer, or fail on the reply's size.
 * Orders are placed at the emulator directly, 25 at a time (not through the gateway), then the GttWatcher runs (as
 * it does every minute when deployed) so one order by id may answer from its copy of the pending list.
 */
import { buildBrokerRequest } from '../functions/base/broker/jdata.js';
import type { LocalStack } from '../local/run-local.js';
import { deployedFunctions, localEnv, once, ORDER } from './cold-probe.js';
import { percentile, round, warmProbe } from './warm.js';

export const readSizes = () => ({
  small: Number(process.env.BENCH_READS_SMALL ?? 10),
  large: Number(process.env.BENCH_READS_LARGE ?? 1_000),
  list: Number(process.env.BENCH_READS_LIST ?? 16_000),
});

export const measureReads = async (stack: LocalStack, iterations: number) => {
  const sizes = readSizes();
  const session = { uid: stack.emulator.uid, actid: stack.emulator.actid };
  const brokerRequest = (operation: string, fields: Record<string, string>) =>
    buildBrokerRequest(
      stack.broker.baseUrl,
      operation,
      { ...session, ...fields },
      stack.emulator.token,
      stack.broker.auth,
    );
  const place = brokerRequest('PlaceGTTOrder', {
    ...Object.fromEntries(Object.entries(ORDER).map(([k, v]) => [k, String(v)])),
    tsym: encodeURIComponent(ORDER.tsym),
    validity: 'GTT',
  });
  let pending = 0;
  let first = '';
  const placeUpTo = async (n: number) => {
    for (; pending < n; pending += Math.min(25, n - pending)) {
      const replies = await Promise.all(
        Array.from({ length: Math.min(25, n - pending) }, async () => {
          const res = await fetch(place.url, { method: 'POST', headers: place.headers, body: place.body });
          return (await res.json()) as { al_id?: string };
        }),
      );
      for (const reply of replies) {
        if (!reply.al_id) throw new Error(`bench: a setup place failed: ${JSON.stringify(reply)}`);
        first ||= reply.al_id;
      }
    }
  };
  const byId = deployedFunctions().find((f) => f.name === 'GetGTTOrder');
  const list = deployedFunctions().find((f) => f.name === 'GetPendingGTTOrder');
  if (!byId || !list) throw new Error('bench: GetGTTOrder or GetPendingGTTOrder is not in the synthesized stack');
  const rawList = brokerRequest('GetPendingGTTOrder', {});
  const byIdAt = async (n: number) => {
    await placeUpTo(n);
    // The watcher's runs copy the list (at most 1,000 new orders a run): the copy is then fresh for 90 s.
    for (let run = 0; run < Math.ceil(n / 1_000) + 1; run++) await stack.watch();
    const items = Array.from({ length: iterations + 1 }, () => ({ gateway: { al_id: first }, raw: rawList }));
    const out = await warmProbe(`GetGTTOrder at ${n} pending`, byId.file, items, localEnv(stack, byId));
    return { gateway: percentile(out.gw, 50), raw: percentile(out.raw, 50), cpu: percentile(out.gwCpu, 50) };
  };
  const small = await byIdAt(sizes.small);
  const large = await byIdAt(sizes.large);
  await placeUpTo(sizes.list);
  const whole = await once(list.file, {}, localEnv(stack, list));
  return {
    byId: {
      small: sizes.small,
      large: sizes.large,
      smallP50Ms: round(small.gateway, 3),
      largeP50Ms: round(large.gateway, 3),
      ratio: round(large.gateway / small.gateway),
      rawListSmallP50Ms: round(small.raw, 3),
      rawListLargeP50Ms: round(large.raw, 3),
      cpuSmallMs: round(small.cpu),
      cpuLargeMs: round(large.cpu),
    },
    list: {
      pending: sizes.list,
      answered: whole.ok ? 'yes' : 'no',
      error: whole.ok ? '' : (whole.error ?? '').slice(0, 160),
      importPlusFirstInvokeMs: round(whole.totalMs, 1),
    },
  };
};
