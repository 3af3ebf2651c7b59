/**
 * The single GTT's alert types the emulator takes and when each fires (docs/reference/emulator.md, "Alert types";
 * the evidence and the meaning of `d` per type: docs/explanation/broker-wire.md, "Alert types"). `A` fires at or
 * above `d`, `B` at or below. The market's figures a type watches: the last price (LTP, 52-week), the change from
 * the previous close in percent (CH_PER), and what the control surface sets: the average traded price (ATP), open
 * interest (OI), total open interest (TOI) and volume (VOLUME). A type whose figure the market does not hold for
 * the symbol does not fire.
 *
 * The 52-week types are the exception to `d`: LTP_A_52HIGH fires when the last price rises above the symbol's
 * 52-week high as it stood before that price (a new high), LTP_B_52LOW when it falls below the 52-week low; `d` is
 * taken (any number from 0: a family web client sends `0`) and not compared (week52.ts; the evidence and the
 * decision: docs/explanation/broker-wire.md, "Alert types").
 */
export const EMULATOR_ALERT_TYPES = [
  'LTP_A_O',
  'LTP_B_O',
  'CH_PER_A_O',
  'CH_PER_B_O',
  'ATP_A_O',
  'ATP_B_O',
  'OI_A_O',
  'OI_B_O',
  'TOI_A_O',
  'TOI_B_O',
  'VOLUME_A_O',
  'LTP_A_52HIGH',
  'LTP_B_52LOW',
];

/**
 * The figures the control surface sets beside a symbol's price (`POST /_emulator/ltp` with `atp`, `oi`, `toi`,
 * `volume`, `week52High`, `week52Low`); the 52-week range is also seeded and moved by the market (week52.ts).
 */
export interface MarketFigures {
  atp?: number;
  oi?: number;
  toi?: number;
  volume?: number;
  week52High?: number;
  week52Low?: number;
}
export const FIGURE_NAMES = ['atp', 'oi', 'toi', 'volume'] as const;

/** What the market shows of a symbol now. */
export interface MarketView {
  ltp: number;
  close?: number | undefined;
  figures?: MarketFigures | undefined;
}

/** The figure an alert type watches, or undefined when the market holds none for the symbol. */
export const watchedFigure = (alertType: string, view: MarketView): number | undefined => {
  if (alertType.startsWith('LTP_')) return view.ltp;
  if (alertType.startsWith('CH_PER_'))
    return view.close === undefined || !(view.close > 0) ? undefined : ((view.ltp - view.close) / view.close) * 100;
  if (alertType.startsWith('ATP_')) return view.figures?.atp;
  if (alertType.startsWith('OI_')) return view.figures?.oi;
  if (alertType.startsWith('TOI_')) return view.figures?.toi;
  if (alertType.startsWith('VOLUME_')) return view.figures?.volume;
  return undefined;
};

/** Whether a single GTT of `alertType` at `d` fires on what the market shows (the 52-week range: before this price). */
export const alertFires = (alertType: string, d: string, view: MarketView): boolean => {
  if (alertType === 'LTP_A_52HIGH')
    return view.figures?.week52High !== undefined && view.ltp > view.figures.week52High + 1e-9;
  if (alertType === 'LTP_B_52LOW')
    return view.figures?.week52Low !== undefined && view.ltp < view.figures.week52Low - 1e-9;
  const value = watchedFigure(alertType, view);
  if (value === undefined) return false;
  const trigger = Number(d);
  const above = /_A_/.test(alertType);
  return above ? value >= trigger - 1e-9 : value <= trigger + 1e-9;
};

/** Why `d` does not suit the type (the `Invalid Input` text), or undefined: a percentage may be signed, a count is whole, OI needs a derivative. */
export const alertTriggerProblem = (alertType: string, d: string, exch: string, label = 'd'): string | undefined => {
  if (alertType.startsWith('CH_PER_'))
    return /^-?\d+(\.\d+)?$/.test(d) ? undefined : `${label} must be a number (a percentage, may be negative)`;
  if (/^(OI|TOI)_/.test(alertType) && (exch === 'NSE' || exch === 'BSE'))
    return `${alertType} is not valid for ${exch}: no open interest on an equity`;
  if (/^(OI|TOI|VOLUME)_/.test(alertType) && !/^[1-9]\d*$/.test(d))
    return `${label} must be a positive whole number for ${alertType}`;
  if (/_52(HIGH|LOW)$/.test(alertType))
    return /^\d+(\.\d+)?$/.test(d) ? undefined : `${label} must be a number (0 or more) for ${alertType}`;
  if (!/^\d+(\.\d+)?$/.test(d) || Number(d) <= 0) return `${label} must be a positive number`;
  return undefined;
};
