/**
 * The protected limit that closes a position (the day's-limit square-off, check-wiring.ts, and `POST /positions/close`,
 * close.ts): the market-order protection's rule, a sell below the last price and a buy above it by the deployment's
 * band, on the instrument's tick (its rules read through the container's cache), so it lies inside today's band.
 */
import { instrumentRules } from '../base/broker/instruments.js';
import { BrokerBadReplyError } from '../base/contract/errors.js';
import type { Position } from '../base/schemas/positions.js';
import type { InProcessGateway } from '../orders/gateway/in-process.js';
import { autoBandPercent, protectedPrice } from '../orders/safety/market-orders.js';

export type ExitPrice = (
  position: Pick<Position, 'exch' | 'tsym' | 'netQty' | 'lastPrice'>,
  deadline: number,
) => Promise<string>;

/** The closing limit on `gateway`'s reads and its deployment's band. */
export const exitPriceOn =
  (gateway: Pick<InProcessGateway, 'config' | 'reads'>): ExitPrice =>
  async (position, deadline) => {
    if (position.lastPrice === undefined || !(position.lastPrice > 0))
      throw new BrokerBadReplyError(`the positions gave no last price of ${position.exch}:${position.tsym}`);
    const { tick } = await instrumentRules(position.exch, position.tsym, gateway.reads(deadline));
    const leg = {
      exch: position.exch,
      tsym: position.tsym,
      trantype: position.netQty > 0 ? 'S' : 'B',
      prctyp: 'MKT',
      prc: '0',
      reference: String(position.lastPrice),
      path: 'prc',
    };
    const { marketProtectionPercent } = gateway.config;
    const band = marketProtectionPercent === 'auto' ? autoBandPercent(leg) : marketProtectionPercent;
    return protectedPrice(leg, band, tick);
  };
