/**
 * An instrument as plans need it: its tick size (the broker's `SearchScrip`, `ti`), for a plan's prices on the grid,
 * and its last traded price (`SearchScrip` for the instrument token, then `GetQuotes`, its `lp`), for the trailing
 * stop (GetQuotes is defined with the other market reads: base/broker/market.ts). A price that
 * cannot be read throws its named error: the stop stays where it is, and the run says so.
 */
import type * as z from 'zod';

import { type BrokerCallDeps, callBroker } from '../base/broker/call-broker.js';
import { instrumentRules } from '../base/broker/instruments.js';
import { getQuotes } from '../base/broker/market.js';
import { BrokerBadReplyError } from '../base/contract/errors.js';
import type { Instrument } from './engine-needs.js';

/** The instrument's tick and lot sizes (SearchScrip's `ti`, `ls`, through the container's instrument cache: base/broker/instruments.ts). */
export const instrument = async (exch: string, tsym: string, deps: BrokerCallDeps): Promise<Instrument> => {
  const { tick, lot } = await instrumentRules(exch, tsym, deps);
  return { tick, lot };
};

/** The last traded price; the broker's named error when it cannot be read. */
const tokenOf = async (exch: string, tsym: string, deps: BrokerCallDeps): Promise<string> =>
  (await instrumentRules(exch, tsym, deps)).token;

export const lastPrice = async (exch: string, tsym: string, deps: BrokerCallDeps): Promise<number> => {
  const token = await tokenOf(exch, tsym, deps);
  const quote = (await callBroker(getQuotes, { exch, token }, deps)).result as z.output<typeof getQuotes.reply>;
  const price = Number(quote.lp);
  if (!Number.isFinite(price) || price <= 0)
    throw new BrokerBadReplyError(
      `GetQuotes answered no usable last traded price for ${exch}:${tsym} (lp ${quote.lp}).`,
      {
        outcome: 'not_executed',
      },
    );
  return price;
};
