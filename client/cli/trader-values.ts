/**
 * Values as traders type them, read as the API's canonical ones: `--exch nse` is NSE, `--side buy` is B,
 * `--price-type lmt` is LMT, `--retention day` is DAY. The API itself stays strict (it names the canonical value
 * when it refuses one); the command line translates before anything is sent. test/unit/trader-values.test.ts holds
 * the canonical lists to the gateway's own (functions/base/schemas/fields.ts).
 */

/** A field's canonical values and the other spellings each is known by (compared without case). */
export interface ValueTable {
  /** How the usage and the refusals name the field's values. */
  what: string;
  canonical: readonly string[];
  aliases: Readonly<Record<string, string>>;
}

export const EXCHANGE_VALUES: ValueTable = {
  what: 'an exchange',
  canonical: ['NSE', 'NFO', 'BSE', 'MCX', 'BFO', 'CDS', 'BCD', 'NCX', 'NCOM', 'BSTAR'],
  aliases: {},
};

export const SIDE_VALUES: ValueTable = {
  what: 'a side',
  canonical: ['B', 'S'],
  aliases: { BUY: 'B', SELL: 'S' },
};

export const PRICE_TYPE_VALUES: ValueTable = {
  what: 'a price type',
  canonical: ['LMT', 'MKT', 'SL-LMT', 'SL-MKT', 'DS', '2L', '3L'],
  aliases: {
    LIMIT: 'LMT',
    MARKET: 'MKT',
    SL: 'SL-LMT',
    'SL-LIMIT': 'SL-LMT',
    SL_LMT: 'SL-LMT',
    'SL-M': 'SL-MKT',
    'SL-MARKET': 'SL-MKT',
    SL_MKT: 'SL-MKT',
  },
};

export const RETENTION_VALUES: ValueTable = {
  what: 'a retention',
  canonical: ['DAY', 'EOS', 'IOC'],
  aliases: {},
};

export const ALERT_VALUES: ValueTable = {
  what: 'an alert',
  canonical: [
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
  ],
  aliases: {
    ABOVE: 'LTP_A_O',
    BELOW: 'LTP_B_O',
    'LTP-A-O': 'LTP_A_O',
    'LTP-B-O': 'LTP_B_O',
    'CHANGE-ABOVE': 'CH_PER_A_O',
    'CHANGE-BELOW': 'CH_PER_B_O',
    'ATP-ABOVE': 'ATP_A_O',
    'ATP-BELOW': 'ATP_B_O',
    'OI-ABOVE': 'OI_A_O',
    'OI-BELOW': 'OI_B_O',
    'TOTAL-OI-ABOVE': 'TOI_A_O',
    'TOTAL-OI-BELOW': 'TOI_B_O',
    'VOLUME-ABOVE': 'VOLUME_A_O',
    '52-WEEK-HIGH': 'LTP_A_52HIGH',
    '52-WEEK-LOW': 'LTP_B_52LOW',
  },
};

/** The canonical value `typed` stands for, or undefined when it is none of the table's spellings. */
export const canonicalValue = (table: ValueTable, typed: string): string | undefined => {
  const upper = typed.trim().toUpperCase();
  if (table.canonical.includes(upper)) return upper;
  return table.aliases[upper];
};

/** `B or S (also buy, sell)`: what a refusal says the field takes. */
export const choicesText = (table: ValueTable): string => {
  const list = table.canonical;
  const named = list.length > 1 ? `${list.slice(0, -1).join(', ')} or ${list.at(-1)}` : (list[0] ?? '');
  const aliases = Object.keys(table.aliases).map((a) => a.toLowerCase());
  return aliases.length ? `${named} (also ${aliases.join(', ')})` : `${named} (any case)`;
};

/**
 * The alert a GTT gets when none is given: a buy fires when the last price falls to the trigger (LTP_B_O, buying
 * the dip), a sell when it rises to it (LTP_A_O, taking the target): the usual single GTT. A breakout buy or a
 * stop-loss sell names its alert (--alert above / below).
 */
export const defaultAlert = (side: string): 'LTP_A_O' | 'LTP_B_O' => (side === 'S' ? 'LTP_A_O' : 'LTP_B_O');

/** What each alert watches, as the output names it. */
const WATCHED: Readonly<Record<string, string>> = {
  LTP: 'the last price',
  CH_PER: "the day's change from the previous close (%)",
  ATP: 'the average traded price',
  OI: 'the open interest',
  TOI: 'the total open interest',
  VOLUME: "the day's volume",
};

/** What the output says of an alert: when the GTT fires. */
export const alertWords = (alert: string, trigger: string): string => {
  const watched = WATCHED[alert.replace(/_[AB]_.*$/, '')] ?? 'the last price';
  return `fires when ${watched} is at or ${/_A_/.test(alert) ? 'above' : 'below'} ${trigger}`;
};
