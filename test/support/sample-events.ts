/**
 * The tests' sample event details (the `detail` of the gateway's events): the fields every event has, a single GTT
 * placed through the gateway (a buy of 1 M&M-EQ at 1500 when the price falls to 1490, tag swing-1), and the order a
 * fired GTT placed as the watcher saw it end (a buy of 10 M&M-EQ). Spread them and override what a test checks.
 */
export const SAMPLE_EVENT_COMMON = Object.freeze({
  eventId: '0123456789abcdef0123456789abcdef',
  observedAt: '2026-11-23T04:05:06.000Z',
});

export const SAMPLE_SINGLE_DETAIL = Object.freeze({
  ...SAMPLE_EVENT_COMMON,
  origin: 'gateway' as const,
  al_id: '24112300000001',
  type: 'single' as const,
  exch: 'NSE',
  tsym: 'M&M-EQ',
  side: 'B',
  trigger: '1490',
  alertType: 'LTP_B_O',
  quantity: 1,
  price: '1500',
  priceType: 'LMT',
  product: 'C',
  tag: 'swing-1',
});

export const SAMPLE_FATE_DETAIL = Object.freeze({
  ...SAMPLE_EVENT_COMMON,
  origin: 'watcher' as const,
  al_id: '24112300000001',
  exch: 'NSE',
  tsym: 'M&M-EQ',
  side: 'B',
  quantity: 10,
  tag: 'swing-1',
});
