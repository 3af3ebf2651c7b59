/** The plan engine's limits: the late window of a broker write, and when a plan stops trying and says so. */

/**
 * The late window: how long after our client gave up on a broker write (the deadline of the invocation that sent
 * it) the broker may still carry it out. A plan's try is leased until that deadline plus this window; past it, a try
 * the broker does not show never reached it, and the step is tried again with a new key (docs/reference/plans.md, "Tries").
 *
 * 15 s: brokers of this family are taken to process a request within their own gateway's timeout, about 10 s
 * (longer than our own broker timeout, 8 s by default: BROKER_TIMEOUT_MS), and 5 s more cover a request still
 * queued at that gateway when our side gave up. This is an assumption about the broker, not a documented guarantee:
 * the emulator's `late` delay fault (docs/reference/emulator.md) models a broker acting after the client left, and the plans'
 * model-based test keeps every late action inside this window. The order journal's late bound is the same one: keep
 * this name when the two meet.
 */
export const LATE_WINDOW_MS = 15_000;
/** Runs in a row without a price before the trailing stop says so in an event. */
export const PRICE_MISSES_BEFORE_EVENT = 3;
/** Refused tries of one exit generation before the plan waits for the trader. */
export const MAX_EXIT_TRIES = 20;
/** Exit generations (a new exit after an exit order was rejected) before the plan waits for the trader. */
export const MAX_EXIT_GENERATIONS = 3;
