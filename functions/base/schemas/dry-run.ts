/**
 * The reply of a dry run (`?dryRun=true` on place, modify and cancel): the request that would be sent, with the
 * token masked, and, on a place or modify of a GTT or an OCO, the exchange's rules checked with their values (a band
 * or a freeze quantity the broker does not give is named as not given: it was not checked). For the OpenAPI
 * document; functions/orders/safety/dry-run.ts builds it.
 */
import * as z from 'zod';

const NOT_GIVEN = z.literal('not given by the broker');

export const checkedRulesSchema = z
  .object({
    instrument: z.string().describe('`EXCH:TSYM`'),
    tick: z.string().describe("the instrument's tick size (SearchScrip `ti`)"),
    lot: z.number().int().describe('its lot size (SearchScrip `ls`)'),
    precision: z.number().int().describe('its price precision (SearchScrip `pp`)'),
    band: z
      .union([z.object({ lc: z.string(), uc: z.string(), width: z.string().describe('e.g. `±10%`') }), NOT_GIVEN])
      .describe("today's price band (GetQuotes `lc`, `uc`): each limit price within its width around its trigger"),
    freeze: z
      .union([z.number().int(), NOT_GIVEN])
      .describe('the freeze quantity (GetSecurityInfo `frzqty`): no order above it'),
    source: z
      .object({
        day: z.string().describe("India's calendar day the rules are of (`YYYY-MM-DD`)"),
        instrument: z
          .enum(['symbol master', 'SearchScrip'])
          .describe("where the tick, lot and precision were read: the day's symbol master or SearchScrip"),
        marketReadAt: z.string().describe('when the band and freeze quantity were read from the broker (ISO)'),
        via: z
          .enum(['broker', 'copy', 'container'])
          .describe("what this check read them from: the broker now, the account's copy, or the container's memory"),
      })
      .optional()
      .describe('where the rules came from'),
  })
  .describe("the exchange's rules checked before anything would be sent");

export const dryRunResultSchema = z.object({
  dryRun: z.literal(true),
  operation: z.string(),
  request: z.object({
    method: z.literal('POST'),
    url: z.string(),
    headers: z.record(z.string(), z.string()),
    body: z.string(),
    jData: z.record(z.string(), z.unknown()),
  }),
  exchangeRules: checkedRulesSchema.optional(),
});
