/**
 * One GTT order in the broker's wire form (the PlaceGTTOrder jData, every scalar a string): a buy of 10 RELIANCE-EQ
 * at 2500.5 when the price falls to 2490. Tests spread it (`wireGtt({ tsym: 'INFY-EQ', qty: '5' }, account)`) and
 * override only the fields they check.
 */
export const WIRE_ORDER = Object.freeze({
  exch: 'NSE',
  tsym: 'RELIANCE-EQ',
  qty: '10',
  prc: '2500.5',
  prd: 'C',
  trantype: 'B',
  prctyp: 'LMT',
  ret: 'DAY',
  ai_t: 'LTP_B_O',
  validity: 'GTT',
  d: '2490',
});

/** WIRE_ORDER with `over`; with an account, its `uid` and `actid` lead, in the order the broker's clients send them. */
export const wireGtt = (
  over: Record<string, unknown> = {},
  account?: { uid: string; actid: string },
): Record<string, unknown> => ({
  ...(account && { uid: account.uid, actid: account.actid }),
  ...WIRE_ORDER,
  ...over,
});

/**
 * One leg of an OCO in the wire form (`place_order_params`, `place_order_params_leg2`): a limit sell of 10
 * RELIANCE-EQ at 2600 for the account's uid and actid.
 */
export const wireOcoLeg = (
  account: { uid: string; actid: string },
  over: Record<string, unknown> = {},
): Record<string, unknown> => ({
  tsym: 'RELIANCE-EQ',
  exch: 'NSE',
  trantype: 'S',
  prctyp: 'LMT',
  prd: 'C',
  ret: 'DAY',
  actid: account.actid,
  uid: account.uid,
  ordersource: 'API',
  qty: '10',
  prc: '2600',
  ...over,
});
