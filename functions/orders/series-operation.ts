/**
 * GET /quotes/series: an instrument's price bars of a span (the chart's history), one entry of the operation table
 * beside GetQuote (operations.ts), read from the broker's `TPSeries` by the instrument's token.
 */
import { seriesJData, seriesResultOf } from '../base/broker/series.js';
import { defineOperation } from '../base/contract/operation.js';
import { EXAMPLE_ORDER } from '../base/schemas/examples.js';
import { seriesInput, seriesReply, seriesResult } from '../base/schemas/series.js';

export const getSeries = defineOperation({
  name: 'GetSeries',
  broker: 'TPSeries',
  id: 'get-series',
  summary: "An instrument's price bars (open, high, low, close) of a span, oldest first: today's by default",
  route: { method: 'GET', path: '/quotes/series' },
  query: ['exch', 'tsym', 'interval', 'from', 'to'],
  successStatus: 200,
  kind: 'read',
  retrySafe: true,
  input: seriesInput,
  example: { exch: 'NSE', tsym: EXAMPLE_ORDER.tsym, interval: '5' },
  // The broker reads a series by instrument token: today's rules give it (and the precision of the prices).
  instrument: { of: (input) => input, withRules: (input, rules) => ({ ...input, rules }) },
  toJData: seriesJData,
  reply: seriesReply,
  toResult: seriesResultOf,
  result: seriesResult,
  // `no data`: no bars in the span.
  emptyReply: { emsg: 'no data', reply: [] },
});
