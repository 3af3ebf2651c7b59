/**
 * A plans run killed while a broker write of it is in flight, as an invocation dies (its timeout reached, the
 * container recycled): from that moment nothing it awaits comes back to it, so nothing after runs (no plan write,
 * no event handed on, no answer read). The write it sent still reaches the broker, which does with it what the
 * emulator's faults say (a `delay` with `late`: carried out after the client left). Used by the plans' model-based
 * test and test/integration/plans-killed-run.test.ts.
 */
import { type PlanDeps, PlanEngine } from '../../functions/plans/engine.js';

const never = <T>(): Promise<T> => new Promise<T>(() => undefined);

/** The broker writes of a plan, by the operation each sends. */
const WRITES = {
  place: 'PlaceGTTOrder',
  placeOco: 'PlaceOCOOrder',
  modify: 'ModifyGTTOrder',
  cancel: 'CancelGTTOrder',
  placeOrder: 'PlaceOrder',
} as const;
export type WriteOperation = (typeof WRITES)[keyof typeof WRITES];

/**
 * The deployment's parts as an invocation sees them that dies at its first broker write (the write sent, its answer
 * never read), or at `deadline` (ms since the epoch, the wall clock) if it makes none. `died` is told the write's
 * operation as it dies.
 */
export const killedAt = (
  deps: PlanDeps,
  deadline: number,
  died: (operation: WriteOperation) => void = () => undefined,
): PlanDeps => {
  let diesAt = deadline;
  const cut =
    <A extends unknown[], R>(fn: (...args: A) => Promise<R>, write?: WriteOperation) =>
    async (...args: A): Promise<R> => {
      if (Date.now() >= diesAt) return never<R>();
      const call = fn(...args).then(
        (value) => ({ ok: true as const, value }),
        (error: unknown) => ({ ok: false as const, error }),
      );
      if (write && Date.now() < diesAt) {
        diesAt = Date.now();
        died(write);
      }
      const settled = await call;
      if (Date.now() >= diesAt) return never<R>();
      if (!settled.ok) throw settled.error;
      return settled.value;
    };
  const store = new Proxy(deps.store, {
    get: (target, property, receiver) => {
      const value: unknown = Reflect.get(target, property, receiver);
      // The store's public methods are all async: each is cut like the broker calls.
      return typeof value === 'function'
        ? cut((...args: unknown[]) => (value as (...a: unknown[]) => Promise<unknown>).apply(target, args))
        : value;
    },
  });
  return {
    ...deps,
    store,
    place: cut(deps.place, WRITES.place),
    placeOco: cut(deps.placeOco, WRITES.placeOco),
    modify: cut(deps.modify, WRITES.modify),
    cancel: cut(deps.cancel, WRITES.cancel),
    placeOrder: cut(deps.placeOrder, WRITES.placeOrder),
    orderBook: cut(deps.orderBook),
    pending: cut(deps.pending),
    triggered: cut(deps.triggered),
    instrument: cut(deps.instrument),
    lastPrice: cut(deps.lastPrice),
    publish: cut(deps.publish),
    scope: cut(deps.scope),
  };
};

/** The engine's parts (its clock included): the engine keeps them private, the tests share them. */
export const depsOf = (engine: PlanEngine): PlanDeps => (engine as unknown as { deps: PlanDeps }).deps;

/**
 * One `advance` of this engine's deployment in an invocation whose deadline is `ms` from now, killed at its first
 * broker write; answers once it ended without a write, or once its deadline has passed: waited for, or, given
 * `passTime`, passed on the engine's clock (the write it sent goes on at the broker in real time meanwhile). Its
 * own result is never seen, as nobody sees a killed invocation's; the answer is the write it died in, and the
 * invocation's deadline.
 */
export const killedRun = async (
  engine: PlanEngine,
  ms: number,
  passTime?: (ms: number) => void,
): Promise<{ write?: WriteOperation; deadline: number }> => {
  const deadline = Date.now() + ms;
  const write = await new Promise<WriteOperation | undefined>((resolve) => {
    const doomed = new PlanEngine(killedAt(depsOf(engine), deadline, resolve));
    void doomed.advance(deadline).then(
      () => resolve(undefined),
      () => resolve(undefined),
    );
  });
  if (!write) return { deadline };
  const left = deadline - Date.now() + 50;
  if (passTime) passTime(left);
  else await new Promise((resolve) => setTimeout(resolve, left));
  return { write, deadline };
};
