/**
 * The gateway's stamp in the broker's remarks (functions/base/broker/order-stamps.ts): read only where the gateway
 * could have written it, and never from a caller's tag (base/schemas/fields.ts refuses a tag that ends in its shape).
 */
import { describe, expect, it } from 'vitest';

import { splitRemarks, stampedRemarks, stampOf } from '../../functions/base/broker/order-stamps.js';
import { orderTag } from '../../functions/base/schemas/fields.js';
import { fitsStrategyTag, strategyPatch } from '../../functions/base/schemas/signals.js';

describe('splitRemarks', () => {
  const stamp = stampOf('PlaceGTTOrder', 'k-1');

  it('reads the stamp the gateway wrote, after the tag or alone', () => {
    expect(splitRemarks(stampedRemarks('swing-1', stamp))).toEqual({ tag: 'swing-1', stamp });
    expect(splitRemarks(stampedRemarks(undefined, stamp))).toEqual({ stamp });
  });

  it('reads no stamp run into the text before it: the gateway always writes a space first', () => {
    expect(splitRemarks(`swing${stamp}`)).toEqual({ tag: `swing${stamp}` });
  });
});

describe('a tag', () => {
  it.each(['gw.0123456789', 'my label gw.abcdefghij', 'a-label-of-some-length gw.0123456789', 'xgw.0123456789'])(
    'that ends in the stamp shape is refused, naming why: %j',
    (tag) => {
      const parsed = orderTag.safeParse(tag);
      expect(parsed.success).toBe(false);
      expect(parsed.error?.issues[0]?.message).toMatch(/shape of the gateway's own stamp/);
    },
  );

  it.each(['gw.012345678', 'gw.0123456789 x', 'GW.0123456789x', 'swing-1 gw.wxyz012345'])('%j is a tag', (tag) => {
    expect(orderTag.safeParse(tag).success).toBe(true);
  });
});

describe("a strategy's tag", () => {
  it('that ends in the stamp shape is refused on create and on edit, naming why', () => {
    for (const parsed of [
      strategyPatch.safeParse({ tag: 'alerts gw.0123456789' }),
      strategyPatch.safeParse({ tag: 'gw.abcdefghij' }),
    ]) {
      expect(parsed.success).toBe(false);
      expect(parsed.error?.issues[0]?.message).toMatch(/shape of the gateway's own stamp/);
    }
  });

  it("a name that ends in the stamp shape is never its orders' tag (the strategy's id is)", () => {
    expect(fitsStrategyTag('nifty breakout')).toBe(true);
    expect(fitsStrategyTag('nifty gw.0123456789')).toBe(false);
    expect(fitsStrategyTag('x'.repeat(27))).toBe(false);
  });
});
