/**
 * Reads that grow with the pending list: one order by id (the GetGTTOrder bundle warm) at a small and a large
 * number of pending orders, against a raw `node:http` POST of the broker's pending list (what a hand-written
 * function reads to find one order: the broker has no read by id), interleaved; and the whole pending list at a
 * large N (GetPendingGTTOrder's bundle, import + first invoke): does it answer, or fail on the reply's size.
 * Orders are placed at the emulator directly, 25 at a time (not through the gateway), then the GttWatcher runs (as
 * it does every minute when deployed) so one order by id may answer from its copy of the pending list.
 */
import { buildBrokerRequest } from '../functions/base/broker/jdata.js';
import { JsonArraySplitter } from '../functions/base/broker/json-records.js';
import { decodeBrokerReply, listDecoder } from '../functions/base/broker/reply.js';
import { listOrdersInput } from '../functions/base/schemas/input.js';
import { getPendingGttOrders } from '../functions/orders/operations.js';
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
  // Last: it seeds BENCH_READS_WALK more orders.
  const walk = await measurePageWalk(stack);
  return {
    walk,
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

/**
 * Walking every page of a long pending list against one full read, in decoding CPU (this process's user + system
 * time; the list's bytes fetched from the emulator once and fed to the gateway's list reader as the transport
 * would, in 64 KB chunks, so the broker's work and the network are not counted, and are the same per read): the
 * full read is the whole list decoded (what the GttWatcher reads, and what every page cost before pages kept only
 * their own records); the walk is every page from the first to the last `nextCursor`, at the default limit (100) and
 * the largest (1,000). Each page reads the whole list again: the broker has no paging.
 */
export const measurePageWalk = async (stack: LocalStack, pending = Number(process.env.BENCH_READS_WALK ?? 50_000)) => {
  const seeded = await fetch(`${stack.emulator.url}/_emulator/seed-gtts`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      uid: stack.emulator.uid,
      count: pending,
      order: {
        uid: stack.emulator.uid,
        actid: stack.emulator.actid,
        ...Object.fromEntries(Object.entries(ORDER).map(([k, v]) => [k, String(v)])),
        validity: 'GTT',
      },
    }),
  });
  if (seeded.status !== 201) throw new Error(`bench: the emulator's seed failed: ${await seeded.text()}`);
  const raw = buildBrokerRequest(
    stack.broker.baseUrl,
    'GetPendingGTTOrder',
    { uid: stack.emulator.uid },
    stack.emulator.token,
    stack.broker.auth,
  );
  const body = Buffer.from(
    await (await fetch(raw.url, { method: 'POST', headers: raw.headers, body: raw.body })).arrayBuffer(),
  );
  const cpu = () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  };
  // `undefined`: the whole list, as the watcher reads it (no limit: the input schema would give the default).
  const read = (query: Record<string, unknown> | undefined) => {
    const input = query === undefined ? {} : listOrdersInput.parse(query);
    const decoder = listDecoder(getPendingGttOrders, input)!;
    const splitter = new JsonArraySplitter(decoder.onRecord, 64 * 1024);
    for (let at = 0; at < body.length; at += 65_536) splitter.write(body.subarray(at, at + 65_536));
    splitter.end();
    const reply = { status: 200, contentType: 'application/json', text: '', records: splitter.elements };
    return decodeBrokerReply(getPendingGttOrders, reply, input, decoder) as { orders: unknown[]; nextCursor?: string };
  };
  let t = cpu();
  // The whole list decoded: a read without a limit, as the watcher's.
  const whole = read(undefined);
  const fullReadCpuMs = cpu() - t;
  const walk = (limit: number) => {
    const start = cpu();
    let cursor: string | undefined;
    let pages = 0;
    let orders = 0;
    do {
      const page = read({ limit: String(limit), ...(cursor ? { cursor } : {}) });
      orders += page.orders.length;
      cursor = page.nextCursor;
      pages++;
    } while (cursor);
    if (orders !== whole.orders.length) throw new Error(`bench: the walk listed ${orders} of ${whole.orders.length}`);
    return { pages, cpuMs: cpu() - start };
  };
  t = cpu();
  const at1000 = walk(1_000);
  const at100 = walk(100);
  return {
    pending,
    listBytes: body.length,
    fullReadCpuMs: round(fullReadCpuMs),
    walkAt1000Pages: at1000.pages,
    walkAt1000CpuMs: round(at1000.cpuMs),
    walkAt1000Ratio: round(at1000.cpuMs / fullReadCpuMs),
    walkAt100Pages: at100.pages,
    walkAt100CpuMs: round(at100.cpuMs),
    walkAt100Ratio: round(at100.cpuMs / fullReadCpuMs),
  };
};

if (import.meta.filename === process.argv[1]) {
  const { startLocalStack } = await import('../local/run-local.js');
  const stack = await startLocalStack();
  try {
    console.table([await measurePageWalk(stack)]);
  } finally {
    await stack.close();
  }
}
