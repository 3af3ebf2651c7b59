/**
 * An instrument as plans need it: its tick size (the broker's `SearchScrip`, `ti`), for a plan's prices on the grid,
 * and its last traded price (`SearchScrip` for the instrument token, then `GetQuotes`, its `lp`), for the trailing
 * stop (GetQuotes is defined with the other market reads: base/broker/market.ts). A price that
 * cannot be read throws its named error, in words a trader reads after "price unavailable" (trailing.ts): the broker
 * has no quote yet (`no data`), its quote named another instrument (otherInstrumentOf, never used), or its `lp` is
 * not a price. The stop stays where it is, and the run says so.
 */
import type { BrokerCallDeps } from '../base/broker/call-broker.js';
import { instrumentRules } from '../base/broker/instruments.js';
import { lastTradedPrice } from '../base/broker/market.js';
import type { Instrument } from './engine-needs.js';

/** The instrument's tick and lot sizes (SearchScrip's `ti`, `ls`, through the container's instrument cache: base/broker/instruments.ts). */
export const instrument = async (exch: string, tsym: string, deps: BrokerCallDeps): Promise<Instrument> => {
  const { tick, lot, token } = await instrumentRules(exch, tsym, deps);
  return { tick, lot, token };
};

/** The last traded price; the broker's named error when it cannot be read. */
const tokenOf = async (exch: string, tsym: string, deps: BrokerCallDeps): Promise<string> =>
  (await instrumentRules(exch, tsym, deps)).token;

export const lastPrice = async (exch: string, tsym: string, deps: BrokerCallDeps): Promise<number> =>
  lastTradedPrice(exch, await tokenOf(exch, tsym, deps), `${exch}:${tsym}`, deps, tsym);
