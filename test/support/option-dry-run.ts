/**
 * A dry run's answer of an option plan (`POST /plans?dryRun=true`) as functions/plans/option-create.ts makes it, for
 * the tests of what the console, MCP and the CLI say of it without the engine.
 */
export interface ResolvedLike {
  price: number;
  exch: string;
  tsym: string;
  token: string;
  expiry: string;
  type: 'CE' | 'PE';
  strike: number;
  atm: number;
  strikeStep: number;
  lot: number;
  qty: number;
}

export const dryRunOf = (r: ResolvedLike, lastPrice = 123.4) => ({
  dryRun: true,
  kind: 'option-entry',
  underlying: { name: 'NIFTY', exch: 'NSE', tsym: 'Nifty 50', token: '26000', price: r.price },
  when: { above: '24500' },
  contract: {
    exch: r.exch,
    tsym: r.tsym,
    token: r.token,
    expiry: r.expiry,
    type: r.type,
    strike: r.strike,
    atm: r.atm,
    strikeStep: r.strikeStep,
    lot: r.lot,
    tick: '0.05',
    lastPrice,
  },
  lots: r.qty / r.lot,
  qty: r.qty,
  entry: { exch: r.exch, tsym: r.tsym, trantype: 'B', prd: 'M', qty: r.qty, prctyp: 'LMT', ret: 'IOC', prc: '124.05' },
  note: "the contract picked at NIFTY's price now; nothing was stored or sent.",
});
