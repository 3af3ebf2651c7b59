/**
 * What the gateway did to a market order (docs/explanation/compliance.md#market-orders): the brokers refuse API market orders,
 * so MKT / SL-MKT go as LMT / SL-LMT at a protection band from a reference price. The reply of a place or modify,
 * its audit record and its lifecycle event say so in `converted`: the conversion of a single order, or of each
 * converted leg of an OCO.
 */
import './zod-config.js';

import * as z from 'zod';

export const marketConversion = z
  .strictObject({
    from: z.string().describe('the price type asked for: MKT or SL-MKT'),
    to: z.string().describe('the price type sent: LMT or SL-LMT'),
    price: z.string().describe('the limit price sent'),
    reference: z.string().describe("the price the band is around: the trigger, or a stop-loss leg's own trgprc"),
    protectionPct: z.string().describe('the protection band, in percent of the reference'),
    tick: z.string().describe("the grid the price is on: the instrument's tick"),
    reason: z.string(),
  })
  .describe('a market order sent as a protected limit order');
export type MarketConversion = z.output<typeof marketConversion>;

/** A single order's conversion, or an OCO's by leg (only the legs that were market orders). */
export const convertedField = z
  .union([
    marketConversion,
    z.strictObject({ target: marketConversion.optional(), stopLoss: marketConversion.optional() }),
  ])
  .describe('present when the gateway sent a market order as a protected limit order (an OCO: by leg)');
export type Converted = z.output<typeof convertedField>;

/** The converted legs of an OCO's `converted`, or the one of a single order, by the caller's leg name. */
export const conversionsOf = (converted: Converted): { leg?: 'target' | 'stopLoss'; conversion: MarketConversion }[] =>
  'from' in converted
    ? [{ conversion: converted as MarketConversion }]
    : (['target', 'stopLoss'] as const).flatMap((leg) => {
        const conversion = (converted as { target?: MarketConversion; stopLoss?: MarketConversion })[leg];
        return conversion ? [{ leg, conversion }] : [];
      });
