/**
 * The single GTT's alert types as the console's forms offer them: each with the name a trader types (the command
 * line's `--alert` names), what fires it, and what the trigger value means for it, per the decisions in
 * docs/explanation/broker-wire.md ("Alert types"). The two LTP types come first, as the broker's own documentation
 * shows them; the rest are the family's clients' (medium confidence, low for total open interest and the 52-week
 * pair). The API checks the trigger (`functions/base/schemas/alert-types.ts`) and names what is wrong beside it.
 */
import { alertMeasureOf } from '../../../functions/base/schemas/alert-types.js';

interface AlertChoice {
  value: string;
  /** What fires it, with the trader's name for it. */
  text: string;
  /** What the trigger value is for this type. */
  trigger: string;
}

const NOT_A_PRICE = 'not a price: a market order is refused on it, set a limit price';

const ALERT_CHOICES: readonly AlertChoice[] = [
  { value: 'LTP_B_O', text: 'the price falls to or below the trigger', trigger: "a price on the instrument's tick" },
  { value: 'LTP_A_O', text: 'the price rises to or above the trigger', trigger: "a price on the instrument's tick" },
  {
    value: 'CH_PER_A_O',
    text: 'the change from the close rises to the trigger (change-above)',
    trigger: `the day's change from the previous close in percent, e.g. 2.5 (above -100, at most 2 decimals); ${NOT_A_PRICE}`,
  },
  {
    value: 'CH_PER_B_O',
    text: 'the change from the close falls to the trigger (change-below)',
    trigger: `the day's change from the previous close in percent, e.g. -3 (above -100, at most 2 decimals); ${NOT_A_PRICE}`,
  },
  {
    value: 'ATP_A_O',
    text: 'the average traded price rises to the trigger (atp-above)',
    trigger: "the day's average traded price, a price on the instrument's tick",
  },
  {
    value: 'ATP_B_O',
    text: 'the average traded price falls to the trigger (atp-below)',
    trigger: "the day's average traded price, a price on the instrument's tick",
  },
  {
    value: 'OI_A_O',
    text: 'open interest rises to the trigger (oi-above)',
    trigger: `open interest in contracts, a whole number such as 150000; derivatives only (not NSE or BSE); ${NOT_A_PRICE}`,
  },
  {
    value: 'OI_B_O',
    text: 'open interest falls to the trigger (oi-below)',
    trigger: `open interest in contracts, a whole number such as 150000; derivatives only (not NSE or BSE); ${NOT_A_PRICE}`,
  },
  {
    value: 'TOI_A_O',
    text: 'total open interest rises to the trigger (total-oi-above)',
    trigger: `the underlying's open interest over all its contracts, a whole number; derivatives only; ${NOT_A_PRICE}`,
  },
  {
    value: 'TOI_B_O',
    text: 'total open interest falls to the trigger (total-oi-below)',
    trigger: `the underlying's open interest over all its contracts, a whole number; derivatives only; ${NOT_A_PRICE}`,
  },
  {
    value: 'VOLUME_A_O',
    text: "the day's volume rises to the trigger (volume-above)",
    trigger: `the day's traded volume in shares or contracts, a whole number such as 250000; ${NOT_A_PRICE}`,
  },
  {
    value: 'LTP_A_52HIGH',
    text: 'the price rises to the 52-week high (52-week-high)',
    trigger:
      'a price on the tick, sent as the level: the broker (and the sandbox) fire when the last price makes a new 52-week high of its own range, and may ignore this value',
  },
  {
    value: 'LTP_B_52LOW',
    text: 'the price falls to the 52-week low (52-week-low)',
    trigger:
      'a price on the tick, sent as the level: the broker (and the sandbox) fire when the last price makes a new 52-week low of its own range, and may ignore this value',
  },
];

/** The choices as a select's options: `[value, text]`. */
export const ALERT_OPTIONS: readonly (readonly [string, string])[] = ALERT_CHOICES.map((c) => [c.value, c.text]);

/** What the trigger value means for an alert type (the hint beside the trigger field). */
export const triggerHint = (alertType: string): string =>
  ALERT_CHOICES.find((c) => c.value === alertType)?.trigger ?? "a price on the instrument's tick";

/** The trigger field's label: what kind of number it takes. */
export const triggerLabel = (alertType: string, base = 'Trigger'): string => {
  const measure = alertMeasureOf(alertType);
  return measure === 'percent' ? `${base} (% change)` : measure === 'count' ? `${base} (count)` : base;
};
