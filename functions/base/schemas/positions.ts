/**
 * GET /positions: the account's positions of the day, read from the broker's `PositionBook` (NorenRestApiPy
 * `get_positions`; the Noren-based FirstockPy's PositionBookResponseModel names the same fields). The broker's records
 * as any dialect of the family writes them (docs/explanation/broker-wire.md, "Positions": keys in any case, numbers as
 * strings or numbers, fields the gateway does not read passing through unread), and the positions the caller reads.
 */
import './zod-config.js';

import * as z from 'zod';

import { memo } from './values.js';

/** A signed decimal as the family writes amounts and quantities (`-2`, `1450.00`), string or number; absent as 0. */
const signed = () =>
  z
    .union([z.string(), z.number()])
    .transform((v) => String(v).trim())
    .refine((text) => /^-?\d+(\.\d+)?$/.test(text), { error: 'must be a signed decimal' })
    .transform(Number);
const optionalSigned = () => signed().optional();

/** One PositionBook record: keys in any case (`NetQty`, `URMTOM`), numbers as strings or numbers. */
const positionRecordSchema = memo(() =>
  z.preprocess(
    (record) =>
      record !== null && typeof record === 'object' && !Array.isArray(record)
        ? Object.fromEntries(Object.entries(record).map(([key, value]) => [key.toLowerCase(), value]))
        : record,
    z.looseObject({
      exch: z.string().min(1),
      tsym: z.string().min(1),
      token: z.union([z.string(), z.number()]).transform(String).optional(),
      prd: z.string().min(1),
      netqty: signed(),
      netavgprc: optionalSigned(),
      daybuyqty: optionalSigned(),
      daysellqty: optionalSigned(),
      daybuyavgprc: optionalSigned(),
      daysellavgprc: optionalSigned(),
      cfbuyqty: optionalSigned(),
      cfsellqty: optionalSigned(),
      lp: optionalSigned(),
      rpnl: optionalSigned(),
      urmtom: optionalSigned(),
      prcftr: optionalSigned(),
    }),
  ),
);
export const positionRecord = z.lazy(positionRecordSchema);
export type PositionRecord = z.output<typeof positionRecord>;
export const positionsReply = z.lazy(() => z.array(positionRecordSchema()));

const positionSchema = memo(() =>
  z.object({
    exch: z.string(),
    tsym: z.string(),
    token: z.string().optional(),
    product: z.string().describe("the broker's product code (`C`, `I`, `M`, ...)"),
    netQty: z.number().describe('bought minus sold (carried forward included): above 0 long, below 0 short, 0 closed'),
    averagePrice: z.number().describe("the open quantity's average price (0 when closed)"),
    lastPrice: z.number().optional().describe("the broker's last price of the instrument, where it gives one"),
    realised: z.number().describe("the day's realised P&L, rupees"),
    unrealised: z.number().describe('the open quantity marked to the last price, rupees'),
    boughtQty: z.number().describe("the day's bought quantity"),
    soldQty: z.number().describe("the day's sold quantity"),
    priceFactor: z.number().describe('what a point of price is worth per unit (1 but for some commodities)'),
  }),
);
export type Position = z.output<ReturnType<typeof positionSchema>>;

const positionsResultSchema = memo(() =>
  z.object({
    positions: z.array(positionSchema()).describe('one per exchange, symbol and product traded or held; open first'),
    totals: z
      .object({
        realised: z.number(),
        unrealised: z.number(),
        total: z.number().describe("realised plus unrealised: the day's P&L, rupees"),
        open: z.number().describe('how many positions are open (netQty not 0)'),
      })
      .describe('the sums over every position, rupees, to the paisa'),
  }),
);
export const positionsResult = z.lazy(positionsResultSchema);
export type PositionsResult = z.output<typeof positionsResult>;
