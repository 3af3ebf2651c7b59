/**
 * An option plan as the Plans view shows it and the new option plan's form sends it (docs/reference/console.md, note 5):
 * the index it watches and its level, the pick in words, the contract once the index crossed, the state's badge; and
 * the form's fields as the body of `POST /plans {kind: "option-entry"}`. Pure: tested in test/unit/console-option-plan.test.ts.
 */
import { INDEX_NAMES } from '../../../functions/base/schemas/option-plan.js';
import {
  contractWords,
  exitWords,
  indian,
  levelWords,
  pickWords,
} from '../../../functions/base/schemas/option-words.js';
import { istTime, rupees } from '../format.js';
import type { Plan } from '../reads.js';

/** The index names the form offers (NIFTY, BANKNIFTY, ...). */
export const UNDERLYINGS: readonly string[] = Object.keys(INDEX_NAMES);

/** A state's badge: its tone (a class of app.css) and what it means, said beside the state's own name. */
export const stateBadge = (state: Plan['state']): { tone: string; meaning: string } => {
  switch (state) {
    case 'watching':
      return { tone: 'muted', meaning: 'waiting for the index to cross its level; nothing is at the broker yet' };
    case 'entry-placed':
      return { tone: 'warn', meaning: 'the entry order is at the broker, not filled yet' };
    case 'armed':
      return { tone: '', meaning: 'its first order rests at the broker' };
    case 'entry-filled':
      return { tone: 'warn', meaning: 'the entry filled; its exit is being placed' };
    case 'exit-armed':
      return { tone: 'good', meaning: 'the exit rests at the broker' };
    case 'unprotected':
      return { tone: 'bad', meaning: 'a position without its exit' };
    case 'failed':
      return { tone: 'bad', meaning: 'it stopped: see its reason' };
    default:
      return { tone: 'muted', meaning: 'ended' };
  }
};

/** An option plan's head: the index it watches (NIFTY), its level (above 24,500) and the contract once chosen. */
export const optionHead = (plan: Plan): { underlying: string; level: string; contract?: string } | undefined => {
  const option = plan.option;
  if (!option) return undefined;
  return {
    underlying: option.underlying.name,
    level: levelWords(option.when),
    ...(option.resolved ? { contract: option.resolved.tsym } : {}),
  };
};

/** The lines of an option plan: what it watches and picks, then the contract it chose and the price it saw. */
export const optionLines = (plan: Plan): string[] => {
  const option = plan.option;
  if (!option) return [];
  const side = option.trantype === 'S' ? 'sell' : 'buy';
  const lines = [
    `Watches ${option.underlying.name} (${option.underlying.exch}:${option.underlying.tsym}) to go ${levelWords(option.when)}`,
    `Pick: ${pickWords(option.pick, option.lots)} (${side}, product ${option.prd})`,
  ];
  const r = option.resolved;
  if (r)
    lines.push(
      `Contract ${contractWords(r, option.underlying.name)} at ${istTime(r.at)}: ATM ${indian(r.atm)}, step ${indian(r.strikeStep)}, ${r.qty} (${option.lots} × lot ${r.lot})`,
    );
  else lines.push('Contract: chosen when the index crosses the level');
  if (option.entryOrder) lines.push(`Entry order ${option.entryOrder} at the broker`);
  lines.push(`Then ${exitWords(option.exit)} on the premium`);
  return lines;
};

/** The fields both option forms end with: the product, the exit on the premium (points or %) and the tag. */
export interface ExitFieldValues {
  prd: 'C' | 'M' | 'H';
  stop: string;
  stopUnit: 'points' | '%';
  target: string;
  targetUnit: 'points' | '%';
  tag: string;
}

export const EXIT_START: ExitFieldValues = {
  prd: 'M',
  stop: '',
  stopUnit: 'points',
  target: '',
  targetUnit: '%',
  tag: '',
};

/** The new option plan's form. */
export interface OptionFields extends ExitFieldValues {
  underlying: string;
  direction: 'above' | 'below';
  level: string;
  expiry: 'nearest' | 'next-month' | 'date';
  expiryDate: string;
  /** ATM, ATM+n (listed strikes above), ATM-n (below), or a strike number. */
  strikeMode: 'ATM' | 'above' | 'below' | 'number';
  /** The strike (a number), or how many listed strikes above or below ATM. */
  strike: string;
  type: 'CE' | 'PE';
  lots: string;
  side: 'B' | 'S';
  /** The most the entry may be worth when the index crosses (rupees), or empty: no cap. */
  maxValue: string;
}

export const OPTION_START: OptionFields = {
  underlying: 'NIFTY',
  direction: 'above',
  level: '',
  expiry: 'nearest',
  expiryDate: '',
  strikeMode: 'ATM',
  strike: '',
  type: 'CE',
  lots: '1',
  side: 'B',
  maxValue: '',
  ...EXIT_START,
};

/** A whole number of the text, or the text as typed (the gateway names what is wrong with it). */
export const numberOr = (text: string): number | string =>
  /^\d+(\.\d+)?$/.test(text.trim()) ? Number(text) : text.trim();

/** An exit distance as the API takes it: `20` (points) or `25%`. */
export const distanceOf = (value: string, unit: 'points' | '%'): string => `${value.trim()}${unit === '%' ? '%' : ''}`;

const strikeOf = (f: OptionFields): string | number => {
  if (f.strikeMode === 'number') return numberOr(f.strike);
  if (f.strikeMode === 'ATM') return 'ATM';
  return `ATM${f.strikeMode === 'above' ? '+' : '-'}${f.strike.trim()}`;
};

/** The body of `POST /plans` for an option entry. */
export const optionPlanOf = (f: OptionFields) => ({
  kind: 'option-entry' as const,
  underlying: f.underlying,
  when: f.direction === 'above' ? { above: f.level.trim() } : { below: f.level.trim() },
  pick: {
    expiry: f.expiry === 'date' ? f.expiryDate.trim() : f.expiry,
    strike: strikeOf(f),
    type: f.type,
  },
  lots: numberOr(f.lots) as number,
  trantype: f.side,
  prd: f.prd,
  exit: { stop: distanceOf(f.stop, f.stopUnit), target: distanceOf(f.target, f.targetUnit) },
  ...(f.maxValue.trim() ? { maxValue: numberOr(f.maxValue) as number } : {}),
  ...(f.tag.trim() ? { tag: f.tag.trim() } : {}),
});

/** A dry run's value of the entry now against the plan's cap, in words, or undefined when it has no cap. */
export const capWords = (answer: unknown): string | undefined => {
  const { value, maxValue } = (answer ?? {}) as { value?: unknown; maxValue?: unknown };
  if (typeof value !== 'number' || typeof maxValue !== 'number') return undefined;
  return value > maxValue
    ? `Its value now, ${rupees(value)}, is above the most it may be worth (${rupees(maxValue)}): at this price the plan would send nothing and fail.`
    : `Its value now, ${rupees(value)}, is within the most it may be worth (${rupees(maxValue)}), checked again when the index crosses.`;
};

/** The form's field of each field the API names in a refusal (`pick.strike` → `strike`). */
export const OPTION_FIELD_OF: Record<string, string> = {
  underlying: 'underlying',
  when: 'level',
  'when.above': 'level',
  'when.below': 'level',
  'pick.expiry': 'expiry',
  'pick.strike': 'strike',
  'pick.type': 'type',
  lots: 'lots',
  trantype: 'side',
  prd: 'prd',
  'exit.stop': 'stop',
  'exit.target': 'target',
  maxValue: 'maxValue',
  tag: 'tag',
};
