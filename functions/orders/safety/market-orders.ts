/**
 * Market orders under the 2026 rules: the Noren brokers refuse MKT and SL-MKT from the API
 * (`ALGO_CHK: MKT Order type not allowed for API order`), so by default the gateway sends LMT / SL-LMT with a price
 * protection band around the order's reference price instead (buy above it, sell below it), rounded to the tick;
 * `MARKET_ORDERS=reject` refuses them (docs/explanation/compliance.md).
 */
import { GuardrailRejectedError, ValidationFailedError } from '../../base/contract/errors.js';
import type { PricedLeg } from '../../base/contract/operation.js';
import type { MarketConversion } from '../../base/schemas/conversion.js';
import { MARKET_PRICE_TYPES } from '../../base/schemas/input.js';

type MarketLeg = PricedLeg;

export interface MarketOrderSettings {
  marketOrders: 'convert' | 'reject';
  /** `auto` (the tiered table below) or a flat percentage. */
  marketProtectionPercent: string;
  priceTick: string;
}

const SCALE = 10n ** 8n;

/** A non-negative decimal string as an integer scaled by 10^8 (prices carry at most 8 decimals). */
const scaled = (decimal: string): bigint => {
  const [whole = '0', fraction = ''] = decimal.split('.');
  return BigInt(whole) * SCALE + BigInt((fraction + '00000000').slice(0, 8));
};

const format = (value: bigint, decimals: number): string => {
  const whole = value / SCALE;
  const fraction = (value % SCALE).toString().padStart(8, '0').slice(0, decimals);
  return decimals === 0 ? whole.toString() : `${whole}.${fraction}`;
};

const OPTION_EXCHANGES = ['NFO', 'BFO', 'MCX', 'CDS', 'BCD', 'NCO'];
/** `NIFTY 25DEC 24000 CE` (as the exchanges spell it) or `NIFTY25DEC24C24000` (Noren's form). */
const OPTION_SYMBOL = /(?:\s|\d)(?:CE|PE)$|\d[CP]\d+(?:\.\d+)?$/;

/**
 * The protection band in percent of the reference price, as brokers publish theirs for market price protection
 * (docs/explanation/compliance.md): equity and futures 2 % below 100, 1 % up to 500, 0.5 % above; options 5 % below 10, 3 % up
 * to 100, 2 % up to 500, 1 % above.
 */
export const autoBandPercent = (leg: Pick<MarketLeg, 'exch' | 'tsym' | 'reference'>): string => {
  const price = Number(leg.reference);
  if (OPTION_EXCHANGES.includes(leg.exch) && OPTION_SYMBOL.test(leg.tsym)) {
    return price < 10 ? '5' : price <= 100 ? '3' : price <= 500 ? '2' : '1';
  }
  return price < 100 ? '2' : price <= 500 ? '1' : '0.5';
};

/**
 * The limit price of a market order: the reference plus (buy) or minus (sell) the band, on the tick grid, inside
 * the band, and at least one tick away from the reference.
 */
export const protectedPrice = (leg: MarketLeg, bandPercent: string, tick: string): string => {
  const reference = scaled(leg.reference);
  const step = scaled(tick);
  const band = (reference * scaled(bandPercent)) / (100n * SCALE);
  const decimals = (tick.split('.')[1] ?? '').replace(/0+$/, '').length;
  if (leg.trantype === 'B') {
    const floor = ((reference + band) / step) * step;
    const oneTickAbove = ((reference + step - 1n) / step) * step + (reference % step === 0n ? step : 0n);
    return format(floor > oneTickAbove ? floor : oneTickAbove, decimals);
  }
  const ceil = ((reference - band + step - 1n) / step) * step;
  const oneTickBelow = (reference / step) * step - (reference % step === 0n ? step : 0n);
  const price = ceil < oneTickBelow ? ceil : oneTickBelow;
  if (price <= 0n) {
    throw new ValidationFailedError(
      `${leg.path}: a sell market order at ${leg.reference} is too close to 0 to protect with a limit price; send a limit order.`,
      {
        details: [{ field: leg.path, message: 'too low to convert into a protected limit order' }],
      },
    );
  }
  return format(price, decimals);
};

const REASON =
  'the brokers refuse API market orders (2026 algo rules): sent as a limit order at the protection band from the reference price';

/**
 * The order as it is sent: a market order becomes a protected limit order (MKT -> LMT, SL-MKT -> SL-LMT) on `tick`
 * (the instrument's, when known; else the deployment's PRICE_TICK), with what was done; or is refused under
 * `MARKET_ORDERS=reject`. Other orders are returned as they are.
 */
export const convertMarketOrder = (
  leg: MarketLeg,
  settings: MarketOrderSettings,
  tick: string = settings.priceTick,
): { prctyp: string; prc: string; conversion?: MarketConversion } => {
  if (!MARKET_PRICE_TYPES.includes(leg.prctyp)) return { prctyp: leg.prctyp, prc: leg.prc };
  if (settings.marketOrders === 'reject') {
    throw new GuardrailRejectedError(
      `${leg.path === 'prc' ? '' : `${leg.path.replace(/\.prc$/, '')}: `}${leg.prctyp} orders are refused by this deployment (MARKET_ORDERS=reject: the brokers refuse API market orders since the 2026 algo rules); send LMT or SL-LMT with a price.`,
      { details: { rule: 'marketOrders', limit: 'LMT, SL-LMT', actual: leg.prctyp } },
    );
  }
  const band = settings.marketProtectionPercent === 'auto' ? autoBandPercent(leg) : settings.marketProtectionPercent;
  const prctyp = leg.prctyp === 'MKT' ? 'LMT' : 'SL-LMT';
  const prc = protectedPrice(leg, band, tick);
  return {
    prctyp,
    prc,
    conversion: {
      from: leg.prctyp,
      to: prctyp,
      price: prc,
      reference: leg.reference,
      protectionPct: band,
      tick,
      reason: REASON,
    },
  };
};

/** The price type and price sent (see `convertMarketOrder`), on the deployment's PRICE_TICK. */
export const protectMarketOrder = (leg: MarketLeg, settings: MarketOrderSettings): { prctyp: string; prc: string } => {
  const { prctyp, prc } = convertMarketOrder(leg, settings);
  return { prctyp, prc };
};
