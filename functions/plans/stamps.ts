/**
 * How a plan's GTTs are known at the broker, and the keys of its actions.
 *
 * Every GTT a plan places carries a **stamp** as its `remarks` (the gateway's `tag`): the plan id and the step,
 * `pl0123456789abcdef.e` (the bracket's entry), `.x1`, `.x2`, ... (its exit, one per generation), `.s` (the trailing
 * stop). The broker keeps `remarks` on the GTT record (the family's API documentation of 2021 shows `Remarks` on
 * GetPendingGTTOrder records; NorenRestApiPy and the Go and JS clients send `remarks` on PlaceGTTOrder and
 * PlaceOCOOrder) and, on the brokers that carry it, on the order a fired GTT places. So a run finds a step's GTT by
 * its stamp when the reply that named it was lost, and never places that step again (docs/reference/plans.md).
 *
 * Each try of a step has its own idempotency key (`<planId>-<step>-<try>`): a try whose outcome stayed unknown is
 * resolved by reading the broker's lists, never by replaying its key, and the next try (only once the broker shows
 * no GTT with the step's stamp and the first try can no longer be in flight) takes the next key.
 */
import { createHash } from 'node:crypto';

import { parsePlanStamp, type PlanStep } from '../orders/safety/exits.js';

export const digest = (...parts: string[]): string =>
  createHash('sha256').update(parts.join('\u0000')).digest('hex').slice(0, 32);

export const planIdOf = (key: string): string => `pl${digest('plan', key).slice(0, 16)}`;

export const PLAN_ID = /^pl[0-9a-f]{16}$/;

/** A plan step's name in its stamp: `e` (entry), `s` (stop), `x<n>` (the n-th exit). */
export type StepName = PlanStep;

export const stampOf = (planId: string, step: StepName): string => `${planId}.${step}`;

export const exitStep = (generation: number): StepName => `x${generation}`;

/**
 * The plan and step a GTT's tag names, or undefined for any other tag. The stamp's pattern is the order core's (the
 * kill switch's keep-exits reads it there too: orders/safety/exits.ts).
 */
export const parseStamp = parsePlanStamp;

export const keyOf = (stamp: string, attempt: number): string => `${stamp.replace('.', '-')}-${attempt}`;
