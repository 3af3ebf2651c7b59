/**
 * What the signal worker asks of the part that acts (functions/signals/actor-wiring.ts): given a recorded signal and its
 * strategy, do what the strategy says for each alert, through the order operations in-process (idempotency keys
 * derived from the signal id, so a second delivery of the same message replays rather than places again), and say
 * what was done or why nothing was.
 */
import type { SignalRecord, Strategy } from '../base/schemas/signals.js';

export type SignalResult = NonNullable<SignalRecord['results']>[number];

export type ActOutcome =
  | { state: 'acted'; results: SignalResult[] }
  | { state: 'refused'; reason: string; code?: string; results?: SignalResult[] };

/** Acts on one signal; `deadline` is the epoch ms by which the invocation must end. Never throws for a refusal. */
export type SignalActor = (signal: SignalRecord, strategy: Strategy, deadline: number) => Promise<ActOutcome>;
