/**
 * One record of the broker's pending list (GetPendingGTTOrder), as the emulator's Noren dialect writes it, for the
 * tests of the list's streaming reads: its remarks hold quotes, brackets and a non-ASCII letter, so a splitter that
 * miscounts strings, nesting or bytes is caught.
 */
export const pendingRecord = (alId: string, extra: Record<string, unknown> = {}) => ({
  stat: 'Ok',
  ai_t: 'LTP_B_O',
  al_id: alId,
  tsym: 'TCS-EQ',
  exch: 'NSE',
  token: '11536',
  remarks: 'tag with "quotes", ] and } inside \u00e9',
  validity: 'GTT',
  norentm: '10:00:00 01-07-2026',
  trantype: 'B',
  prctyp: 'LMT',
  qty: 3,
  prc: '4000',
  prd: 'C',
  d: '3990',
  oivariable: [{ var_name: 'x', d: '3990' }],
  place_order_params: { trantype: 'B', prctyp: 'LMT', qty: 3, prc: '4000', prd: 'C' },
  ...extra,
});
