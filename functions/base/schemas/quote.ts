/**
 * A quote: GetQuotes' reply as the broker writes it, and what `GET /quotes` answers a caller. Beside the last price,
 * the band and the day's prices, the figures the family's other alert types watch (docs/explanation/broker-wire.md,
 * "Alert types"), so a trader sees the value a non-LTP alert compares its trigger with.
 */
import './zod-config.js';

import * as z from 'zod';

import { memo } from './values.js';

/** A price as the broker writes it: a decimal string, or (read tolerantly) a JSON number. */
const priceText = memo(() => z.union([z.string(), z.number()]).transform((v) => String(v).trim()));

/**
 * GetQuotes (jData `{uid, exch, token}`): the last traded price `lp`, today's circuit limits `uc`/`lc` and the day's
 * open `o`, high `h`, low `l` and previous close `c`, among the instrument's other fields, which pass through unread.
 * The figures the other alert types watch, named as a live reply names them (Shoonya-Dev/ShoonyaApi-py issue #166):
 * the average traded price `ap`, open interest `oi`, volume `v`, the 52-week high and low `wk52_h`, `wk52_l`; and
 * total open interest `toi`, the market feed's name (ShoonyaApi-py's README, touchline), read in case a reply carries
 * it. Each is optional and read as a string or a number. Read in any dialect (dialects.ts: key case, numbers).
 */
const quoteReplySchema = memo(() =>
  z.looseObject({
    stat: z.literal('Ok'),
    request_time: z.string().optional(),
    lp: priceText().optional(),
    uc: priceText().optional(),
    lc: priceText().optional(),
    o: priceText().optional(),
    h: priceText().optional(),
    l: priceText().optional(),
    c: priceText().optional(),
    // The dialects fold a key by its case onto the canonical ones, and `C` is the order records': `c` arrives as `C`.
    C: priceText().optional(),
    ap: priceText().optional(),
    oi: priceText().optional(),
    toi: priceText().optional(),
    v: priceText().optional(),
    wk52_h: priceText().optional(),
    wk52_l: priceText().optional(),
  }),
);
export const quoteReply = z.lazy(quoteReplySchema);
export type QuoteReply = z.output<typeof quoteReply>;

const quoteResultSchema = memo(() =>
  z.object({
    exch: z.string(),
    tsym: z.string(),
    token: z.string().describe("the broker's instrument token"),
    lp: z.string().optional().describe('the last traded price; absent when the broker has no quote for it'),
    band: z
      .object({ lc: z.string(), uc: z.string() })
      .optional()
      .describe("today's price band (circuit limits); absent when the broker gives none"),
    day: z
      .object({
        open: z.string().optional(),
        high: z.string().optional(),
        low: z.string().optional(),
        close: z.string().optional().describe("the previous day's close"),
      })
      .optional()
      .describe("the day's open, high and low and the previous close, those the broker gives (GetQuotes o, h, l, c)"),
    figures: z
      .object({
        changePercent: z
          .string()
          .optional()
          .describe('the change of lp from the previous close in percent, two decimals (CH_PER_* alerts)'),
        averagePrice: z.string().optional().describe("the day's average traded price, GetQuotes ap (ATP_* alerts)"),
        openInterest: z.string().optional().describe('open interest in contracts, GetQuotes oi (OI_* alerts)'),
        totalOpenInterest: z
          .string()
          .optional()
          .describe("the underlying's total open interest, toi where the reply carries it (TOI_* alerts)"),
        volume: z.string().optional().describe("the day's traded volume, GetQuotes v (VOLUME_A_O alerts)"),
        week52High: z.string().optional().describe('the 52-week high, GetQuotes wk52_h (beside LTP_A_52HIGH)'),
        week52Low: z.string().optional().describe('the 52-week low, GetQuotes wk52_l (beside LTP_B_52LOW)'),
      })
      .optional()
      .describe(
        'what the other alert types watch, those the broker gives (a price of 0 left out; a count of 0 kept); absent when it gives none',
      ),
    tick: z.string().describe("the instrument's tick size: prices and triggers are multiples of it"),
    lot: z.number().describe("the instrument's lot size: quantities are multiples of it"),
    precision: z.number().describe('price decimals'),
    quotedAt: z.string().describe('when the gateway read the quote (ISO 8601, UTC)'),
    priceUnavailable: z
      .string()
      .optional()
      .describe(
        'why there is no lp though the broker answered: its quote named another instrument than asked (exchange, token or symbol), so neither its price nor its band was used; ask again',
      ),
  }),
);
export const quoteResult = z.lazy(quoteResultSchema);
export type QuoteResult = z.output<typeof quoteResult>;
