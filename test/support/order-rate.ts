/**
 * For suites about something else than the order rate that send many order writes in a second: the governor stays
 * on (every write still takes a permit), at its highest settings. test/integration/order-rate.test.ts tests it.
 */
export const HIGH_ORDER_RATE = { ORDER_RATE_PER_SECOND: 100, ORDER_RATE_PER_MINUTE: 6_000 } as const;
