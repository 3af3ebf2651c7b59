/**
 * The option plans' market on the local stack, for the option plans' integration and console tests: the day's chains
 * loaded (the InstrumentRefresh run, as `npm start` does), NIFTY's index moved on the emulator, and the plans of a
 * kind as `GET /plans` lists them.
 */
import { expect } from 'vitest';

import type { LocalStack } from '../../local/run-local.js';

export const loadChains = async (stack: LocalStack): Promise<void> => {
  const refresh = await fetch(`${stack.api.url}/_local/run/InstrumentRefresh`, { method: 'POST' });
  expect(refresh.status, await refresh.text()).toBe(200);
};

/** NIFTY's index (NSE `Nifty 50`) at `ltp`; its options are priced from it. */
export const moveNifty = async (stack: LocalStack, ltp: number): Promise<void> => {
  const res = await fetch(`${stack.emulator.url}/_emulator/ltp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ exch: 'NSE', tsym: 'Nifty 50', ltp }),
  });
  expect(res.ok).toBe(true);
};

export const plansOfKind = async (stack: LocalStack, kind: string): Promise<{ planId: string; state: string }[]> => {
  const res = await fetch(`${stack.api.url}/plans?limit=100`);
  return ((await res.json()) as { plans: { planId: string; kind: string; state: string }[] }).plans.filter(
    (p) => p.kind === kind,
  );
};
