/**
 * The page walk's measurement, in a process of its own so only the gateway's CPU is counted (the emulator runs in
 * the bench's process): the broker layer's `sendOnce` over loopback HTTP, as a function calls it. One full read
 * (every record decoded, no limit: what the GttWatcher reads), then every page from the first to the last
 * `nextCursor` at 1,000 and at 100 (the default), each walk from a fresh first page: a walk's later pages are cut from
 * the snapshot its first page kept (functions/base/broker/page-snapshots.ts). Last, a walk at 1,000 that finds no
 * snapshot for any page (each on "another container"): what a page costs that reads the broker.
 * In: BENCH_WALK (JSON: baseUrl, auth, uid, actid, token). Out: one JSON line.
 */
import { sendOnce } from '../functions/base/broker/call-broker.js';
import type { BrokerAuth } from '../functions/base/broker/jdata.js';
import { dropPageSnapshots, heldSnapshots } from '../functions/base/broker/page-snapshots.js';
import { listOrdersInput } from '../functions/base/schemas/input.js';
import { getPendingGttOrders } from '../functions/orders/operations.js';

const config = JSON.parse(process.env.BENCH_WALK!) as {
  baseUrl: string;
  auth: BrokerAuth;
  uid: string;
  actid: string;
  token: string;
};
const session = { uid: config.uid, actid: config.actid, accessToken: config.token };
const deps = { baseUrl: config.baseUrl, auth: config.auth, timeoutMs: () => 120_000 };
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
type Page = { orders: unknown[]; nextCursor?: string };

// A first, small read: the connection and the code's first run are not the measure's.
await sendOnce(getPendingGttOrders, listOrdersInput.parse({ limit: '1' }), session, deps);
dropPageSnapshots();

const t = cpu();
const whole = (await sendOnce(getPendingGttOrders, {}, session, deps)) as Page;
const fullReadCpuMs = cpu() - t;

const walk = async (limit: number, reread = false) => {
  dropPageSnapshots();
  const start = cpu();
  let cursor: string | undefined;
  let pages = 0;
  let orders = 0;
  let heldBytes = 0;
  do {
    if (reread) dropPageSnapshots();
    const input = listOrdersInput.parse({ limit: String(limit), ...(cursor ? { cursor } : {}) });
    const page = (await sendOnce(getPendingGttOrders, input, session, deps)) as Page;
    heldBytes = Math.max(heldBytes, heldSnapshots().bytes);
    orders += page.orders.length;
    cursor = page.nextCursor;
    pages++;
  } while (cursor);
  if (orders !== whole.orders.length) throw new Error(`bench: the walk listed ${orders} of ${whole.orders.length}`);
  return { pages, cpuMs: cpu() - start, heldBytes };
};
const at1000 = await walk(1_000);
const at100 = await walk(100);
const reread = await walk(1_000, true);
console.log(
  JSON.stringify({
    orders: whole.orders.length,
    fullReadCpuMs,
    at1000,
    at100,
    reread,
    rssMb: process.memoryUsage().rss / 2 ** 20,
  }),
);
