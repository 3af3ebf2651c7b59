/**
 * For suites about something else than the order rate that send many order writes in a second: the governor stays
 * on (every write still takes a permit), at its highest settings. test/integration/order-rate.test.ts tests it.
 * `busiestSecond` is how the rate tests count what arrived in any one second.
 */
export const HIGH_ORDER_RATE = { ORDER_RATE_PER_SECOND: 100, ORDER_RATE_PER_MINUTE: 6_000 } as const;

/** The largest number of requests within any one second (a sliding window) of `times` (epoch milliseconds). */
export const busiestSecond = (times: number[]): number => {
  const sorted = [...times].sort((a, b) => a - b);
  let most = 0;
  for (let i = 0, j = 0; i < sorted.length; i++) {
    while (sorted[i]! - sorted[j]! >= 1_000) j++;
    most = Math.max(most, i - j + 1);
  }
  return most;
};
