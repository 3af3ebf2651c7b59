/**
 * The MCP server's previews (mcp/preview.ts): the one-line summary of each kind of write, in a trader's words, and
 * the assistant's limits checked on every order of a request (an OCO's legs each), refused with the reason. Also the
 * layering of mcp/: it imports the client, the base schemas, the SDK, zod and Node only.
 */
import { readdirSync, readFileSync } from 'node:fs';

import { describe, expect, it } from 'vitest';

import type { OperationId } from '../../client/types.js';
import { gttOrder } from '../../functions/base/schemas/reply.js';
import { isWrite, LIMITED_WRITES } from '../../mcp/limits.js';
import { TOOL_OPERATIONS } from '../../mcp/operations.js';
import { checkLimits, summarize } from '../../mcp/preview.js';
import { SAMPLE_ORDER } from '../support/sample-order.js';

/** The tests' sample GTT, 10 INFY-EQ. */
const GTT = { ...SAMPLE_ORDER, tsym: 'INFY-EQ', qty: 10 };
const leg = (trigger: string, prctyp: string, prc?: string) => ({
  trigger,
  order: { trantype: 'S', prctyp, qty: 10, prd: 'C', ...(prc ? { prc } : {}) },
});
const OCO = { exch: 'NSE', tsym: 'INFY-EQ', target: leg('1600', 'LMT', '1600'), stopLoss: leg('1400', 'SL-MKT') };

describe('summarize', () => {
  it('says each write in one line', () => {
    expect(summarize({ operation: 'PlaceGTTOrder', body: GTT })).toBe(
      'Place a GTT on NSE:INFY-EQ: when the price falls below 1490, buy 10 limit 1500 (LMT, product C).',
    );
    expect(
      summarize({
        operation: 'ModifyGTTOrder',
        path: { alId: '42' },
        body: { ...GTT, ai_t: 'LTP_A_O', prctyp: 'MKT' },
      }),
    ).toBe('Replace GTT 42 on NSE:INFY-EQ: when the price rises above 1490, buy 10 at market (MKT, product C).');
    expect(summarize({ operation: 'PatchGTTOrder', path: { alId: '42' }, body: { d: '1480' } })).toBe(
      'Change GTT 42: d 1480; the rest stays as the broker holds it.',
    );
    expect(summarize({ operation: 'PlaceOCOOrder', body: OCO })).toBe(
      'Place an OCO on NSE:INFY-EQ: target at 1600: sell 10 limit 1600 (LMT, product C); stop-loss at 1400: sell 10 at market (SL-MKT, product C).',
    );
    expect(summarize({ operation: 'CancelGTTOrder', path: { alId: '42' } })).toBe('Cancel GTT/OCO 42.');
    expect(summarize({ operation: 'CancelPlan', path: { planId: 'p1' } })).toBe(
      'Cancel plan p1 (its live GTT is cancelled, the plan ends).',
    );
    expect(summarize({ operation: 'ReleaseKillSwitch' })).toBe(
      'Turn the kill switch OFF: places and modifies are accepted again.',
    );
    expect(
      summarize({
        operation: 'CreatePlan',
        body: { kind: 'trailing-stop', order: { ...GTT, trantype: 'S' }, trailBy: '5' },
      }),
    ).toBe('Start a trailing-stop plan on NSE:INFY-EQ: sell 10 limit 1500 (LMT, product C), trailing by 5.');
  });

  it('names what the other alert types watch, not the price', () => {
    const place = (ai_t: string, d: string) => summarize({ operation: 'PlaceGTTOrder', body: { ...GTT, ai_t, d } });
    expect(place('OI_A_O', '150000')).toBe(
      'Place a GTT on NSE:INFY-EQ: when the open interest rises to 150000, buy 10 limit 1500 (LMT, product C).',
    );
    expect(place('CH_PER_B_O', '-2.5')).toContain('when the change from the close (in %) falls to -2.5, buy 10');
    expect(place('ATP_B_O', '1490')).toContain('when the average price falls to 1490,');
    expect(place('LTP_A_52HIGH', '1800')).toContain(
      "when the price makes a new 52-week high (the broker's own range; the level sent, 1800, may be ignored),",
    );
    expect(place('LTP_B_52LOW', '900')).toContain('when the price makes a new 52-week low (');
  });
});

describe('checkLimits', () => {
  it('passes an order within every cap and says what it checked', () => {
    expect(
      checkLimits(
        { operation: 'PlaceGTTOrder', body: GTT },
        { maxQtyPerOrder: 10, maxValuePerOrder: 15_000, exchanges: ['NSE'] },
      ),
    ).toEqual({
      checked: ['exchange among NSE', 'quantity at most 10 per order', 'value at most 15000 per order'],
    });
  });

  it('refuses the quantity, the value (the trigger when priced at market) and the exchange, with the reason', () => {
    expect(checkLimits({ operation: 'PlaceGTTOrder', body: GTT }, { maxQtyPerOrder: 9 }).refused).toBe(
      "the order: quantity 10 is over this assistant's most per order (9)",
    );
    expect(
      checkLimits(
        { operation: 'PlaceGTTOrder', body: { ...GTT, prctyp: 'MKT', prc: undefined } },
        { maxValuePerOrder: 14_000 },
      ).refused,
    ).toMatch(/^the order: value ₹14,900 \(quantity 10 × 1490\) is over this assistant's most per order/);
    expect(
      checkLimits({ operation: 'PlaceGTTOrder', body: { ...GTT, exch: 'BSE' } }, { exchanges: ['NSE'] }).refused,
    ).toBe("the order: exchange BSE is not one of this assistant's (NSE)");
  });

  it("checks each leg of an OCO and a plan's order; a cancel has nothing to check", () => {
    expect(checkLimits({ operation: 'PlaceOCOOrder', body: OCO }, { maxValuePerOrder: 15_000 }).refused).toMatch(
      /^the target leg: value ₹16,000 /,
    );
    expect(
      checkLimits({ operation: 'CreatePlan', body: { kind: 'bracket', entry: GTT } }, { maxQtyPerOrder: 1 }).refused,
    ).toContain("the plan's order: quantity 10");
    expect(checkLimits({ operation: 'CancelGTTOrder', path: { alId: '1' } }, { maxQtyPerOrder: 1 })).toEqual({
      checked: [],
    });
  });
});

/** Pending orders as GetGTTOrder answers them: a GTT of 5 INFY-EQ at 1500, and an OCO of 5 (target 1600, SL 1400). */
const CURRENT_GTT = gttOrder.parse({
  stat: 'Ok',
  al_id: '42',
  type: 'single',
  ai_t: 'LTP_B_O',
  tsym: 'INFY-EQ',
  exch: 'NSE',
  trantype: 'B',
  prctyp: 'LMT',
  qty: 5,
  prc: '1500',
  prd: 'C',
  d: '1490',
});
const CURRENT_OCO = gttOrder.parse({
  ...CURRENT_GTT,
  al_id: '43',
  type: 'oco',
  ai_t: 'LMT_BOS_O',
  trantype: 'S',
  target: { trigger: '1600', order: { trantype: 'S', prctyp: 'LMT', qty: 5, prc: '1600', prd: 'C' } },
  stopLoss: { trigger: '1400', order: { trantype: 'S', prctyp: 'SL-MKT', qty: 5, prd: 'C', trgprc: '1395' } },
});
const CAPPED = { maxQtyPerOrder: 5, maxValuePerOrder: 10_000 };

describe('checkLimits on a change (PATCH): the order after it', () => {
  it('refuses a GTT raised to 500 (or repriced over the value), checked as the order the change leaves', () => {
    const patch = (body: Record<string, unknown>) => ({
      operation: 'PatchGTTOrder' as const,
      path: { alId: '42' },
      body,
    });
    expect(checkLimits(patch({ qty: 500 }), CAPPED, 0, CURRENT_GTT).refused).toBe(
      "the order after the change: quantity 500 is over this assistant's most per order (5)",
    );
    // Only the price given: the quantity is the order's own (5), so 5 × 2500 is over ₹10,000.
    expect(checkLimits(patch({ prc: '2500' }), CAPPED, 0, CURRENT_GTT).refused).toMatch(
      /^the order after the change: value ₹12,500 \(quantity 5 × 2500\) is over/,
    );
    expect(checkLimits(patch({ qty: 500 }), { exchanges: ['BSE'] }, 0, CURRENT_GTT).refused).toBe(
      "the order after the change: exchange NSE is not one of this assistant's (BSE)",
    );
    expect(checkLimits(patch({ d: '1480', prc: '1490' }), CAPPED, 0, CURRENT_GTT)).toEqual({
      checked: ['quantity at most 5 per order', 'value at most 10000 per order'],
    });
  });

  it("checks an OCO's legs each after the change", () => {
    const patch = (body: Record<string, unknown>) => ({
      operation: 'PatchOCOOrder' as const,
      path: { alId: '43' },
      body,
    });
    expect(checkLimits(patch({ stopLoss: { order: { qty: 400 } } }), CAPPED, 0, CURRENT_OCO).refused).toBe(
      "the stopLoss leg after the change: quantity 400 is over this assistant's most per order (5)",
    );
    expect(
      checkLimits(patch({ target: { trigger: '2100', order: { prc: '2100' } } }), CAPPED, 0, CURRENT_OCO).refused,
    ).toMatch(/^the target leg after the change: value ₹10,500 /);
    expect(checkLimits(patch({ stopLoss: { trigger: '1410' } }), CAPPED, 0, CURRENT_OCO).refused).toBeUndefined();
  });

  it('refuses a change whose order was not read (fail closed), even with no limits set', () => {
    for (const operation of ['PatchGTTOrder', 'PatchOCOOrder'] as const)
      expect(checkLimits({ operation, path: { alId: '42' }, body: { qty: 1 } }, {}).refused).toMatch(
        /was not read, so the order after the change cannot be checked; nothing was sent/,
      );
  });
});

describe('checkLimits fails closed', () => {
  it('has a case for every write operation the tools call', () => {
    const writes = TOOL_OPERATIONS.filter(isWrite);
    expect(writes).toEqual(expect.arrayContaining(['PlaceGTTOrder', 'PatchGTTOrder', 'PatchOCOOrder', 'CancelPlan']));
    for (const operation of writes) expect(LIMITED_WRITES[operation], operation).toBeTypeOf('function');
  });

  it('refuses a write operation with no case, and passes a read', () => {
    const unknown = { operation: 'UpdateStrategy' as OperationId, path: { strategyId: 's1' }, body: { qty: 1 } };
    expect(checkLimits(unknown, {}).refused).toBe(
      "UpdateStrategy has no check of this assistant's limits in this server, so it is refused; nothing was sent.",
    );
    expect(checkLimits({ operation: 'GetQuote' }, CAPPED)).toEqual({ checked: [] });
  });

  it("checks a bracket plan's exits too, each for the entry's quantity", () => {
    const bracket = {
      kind: 'bracket',
      entry: { ...GTT, qty: 5 },
      target: { trigger: '2100', price: '2100' },
      stopLoss: { trigger: '1400', price: '1395' },
    };
    expect(checkLimits({ operation: 'CreatePlan', body: bracket }, CAPPED).refused).toMatch(
      /^the plan's target: value ₹10,500 \(quantity 5 × 2100\)/,
    );
  });
});

describe('the layering of mcp/', () => {
  const files = readdirSync('mcp').filter((f) => f.endsWith('.ts'));

  it("imports only the client, the base schemas, the gateway's own PATCH merge, the MCP SDK, zod and Node", () => {
    const allowed =
      /^(\.\/|\.\.\/client\/|\.\.\/functions\/base\/schemas\/|\.\.\/functions\/base\/broker\/(patch-merge|order-version)\.js$|@modelcontextprotocol\/sdk\/|zod$|node:)/;
    expect(files.length).toBeGreaterThan(5);
    for (const file of files) {
      const source = readFileSync(`mcp/${file}`, 'utf8');
      const imports = [...source.matchAll(/^(?:import\s[^;'"]*|export\s[^;'"=(]*\sfrom\s*)['"]([^'"]+)['"]/gm)].map(
        (m) => m[1]!,
      );
      for (const path of imports) expect(path, file).toMatch(allowed);
    }
  });

  it('keeps every file under 400 lines', () => {
    for (const file of files) expect(readFileSync(`mcp/${file}`, 'utf8').split('\n').length, file).toBeLessThan(400);
  });
});
