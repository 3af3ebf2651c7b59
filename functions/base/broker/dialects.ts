/**
 * The dialects of the broker family's replies, read in one place: the raw JSON a broker answered is rewritten to
 * the canonical dialect (the one of `gtt-service`, Shoonya/Zebu and NorenRestApiPy) before the strict reply schemas
 * of functions/base/schemas/reply.ts parse it. So a write whose reply is readable in any known dialect is done, and a
 * reply in none of them still fails the schema (`BROKER_BAD_REPLY`, outcome unknown).
 *
 * What is read (docs/explanation/broker-wire.md, "Dialects", has the same table):
 * - Success texts, compared case-insensitively after trimming, each rewritten to the canonical text of its action:
 *   - `OI created`, `OI replaced`, `OI deleted`: canonical; NorenRestApiPy, the Shoonya and Zebu clients, our spec.
 *   - `Oi created`, `Oi Replaced`: Flattrade PiConnect's GTT pages (equal to the canonical texts but for case).
 *   - `Oi Replacedt`: the family's API documentation of 2021, ModifyGTTOrder's sample reply (a misspelling, kept).
 *   - `Oi delete success`: the 2021 documentation's CancelGTTOrder sample, Flattrade's CancelGTTOrder/CancelOCOOrder.
 *   - `Invalid Oi` (the not-found answer) in any case.
 * - Key case: a key that equals a known key of the family but for case is renamed to it (`Al_id` -> `al_id`,
 *   `Token`, `Remarks`, `Qty`, `Prc` as the 2021 GetPendingGTTOrder sample shows them; `Al_id` also in the place
 *   reply gauravjnigam/norenapigo decodes), in every object of the reply, records and legs included. The canonical
 *   key wins when both are present. `C` keeps its capital: that is its canonical spelling.
 * - Numbers as strings or numbers: a field the canonical dialect writes as a string (`al_id`, `prc`, `d`, ...) is
 *   accepted as a JSON number too (a whole `al_id` only, below 2^53) and handed on as its decimal text; `qty` stays
 *   either (its schema takes both).
 */
import { isRecord } from '../schemas/values.js';

/** A dialect of the family, as the emulator can speak it and docs/explanation/broker-wire.md names it. */
export const DIALECTS = ['noren', '2021', 'flattrade'] as const;
export type Dialect = (typeof DIALECTS)[number];

type Action = 'created' | 'replaced' | 'deleted';

/** The canonical success text of each write. */
export const CANONICAL_TEXT: Record<Action, string> = {
  created: 'OI created',
  replaced: 'OI replaced',
  deleted: 'OI deleted',
};

/** Every accepted success text with where it is documented (compared case-insensitively). */
export const SUCCESS_TEXTS: readonly { action: Action; text: string; source: string }[] = [
  { action: 'created', text: 'OI created', source: 'NorenRestApiPy, Shoonya/Zebu clients, gtt-service spec' },
  { action: 'created', text: 'Oi created', source: 'Flattrade PiConnect PlaceGTTOrder; the 2021 dialect (emulator)' },
  { action: 'replaced', text: 'OI replaced', source: 'NorenRestApiPy, Shoonya/Zebu clients, gtt-service spec' },
  { action: 'replaced', text: 'Oi Replaced', source: 'Flattrade PiConnect ModifyGTTOrder' },
  { action: 'replaced', text: 'Oi Replacedt', source: 'Noren API docs 2021, ModifyGTTOrder sample reply' },
  { action: 'deleted', text: 'OI deleted', source: 'NorenRestApiPy, Shoonya/Zebu clients, gtt-service spec' },
  {
    action: 'deleted',
    text: 'Oi delete success',
    source: 'Noren API docs 2021, CancelGTTOrder sample; Flattrade CancelGTTOrder/CancelOCOOrder',
  },
];

/** The not-found answer of a modify or cancel (`stat`, no `emsg`). */
export const INVALID_OI = 'Invalid Oi';

const fold = (text: string): string => text.trim().toLowerCase();
const CANONICAL_BY_FOLDED = new Map<string, string>([
  ...SUCCESS_TEXTS.map((s) => [fold(s.text), CANONICAL_TEXT[s.action]] as const),
  [fold(INVALID_OI), INVALID_OI],
  [fold('Not_Ok'), 'Not_Ok'],
  [fold('Ok'), 'Ok'],
]);

/** A `stat` in any known dialect -> its canonical text; an unknown text is returned as it came. */
export const canonicalStat = (stat: string): string => CANONICAL_BY_FOLDED.get(fold(stat)) ?? stat;

/**
 * The keys of the family's replies as the canonical dialect spells them (GTT replies, pending and triggered
 * records and their legs, order book records, the enabled list, the client record, failures, a quote's prices and figures).
 */
export const CANONICAL_KEYS = [
  'stat',
  'emsg',
  'request_time',
  'al_id',
  'ai_t',
  'ai_ts',
  'tsym',
  'exch',
  'token',
  'remarks',
  'validity',
  'norentm',
  'pp',
  'ls',
  'ti',
  'brkname',
  'actid',
  'uid',
  'trantype',
  'prctyp',
  'qty',
  'prc',
  'C',
  'prd',
  'ret',
  'ordersource',
  'ipaddr',
  'd',
  's_prdt_ali',
  'trgprc',
  'place_order_params',
  'place_order_params_leg2',
  'oivariable',
  'var_name',
  'trg_leg',
  'norenordno',
  'status',
  'fillshares',
  'avgprc',
  'rejreason',
  'lp',
  'uc',
  'lc',
  // GetQuotes' figures the other alert types watch (schemas/quote.ts).
  'ap',
  'oi',
  'toi',
  'v',
  'wk52_h',
  'wk52_l',
] as const;

/** Keys the 2021 documentation capitalises (its GetPendingGTTOrder and write samples). */
export const CAPITALISED_2021_KEYS = ['Al_id', 'Token', 'Remarks', 'Qty', 'Prc'] as const;

const KEY_BY_FOLDED = new Map<string, string>(CANONICAL_KEYS.map((k) => [k.toLowerCase(), k]));
const CANONICAL_KEY_SET = new Set<string>(CANONICAL_KEYS);

/** Fields the canonical dialect writes as JSON strings; a number there is read as its decimal text. */
const STRING_FIELDS = new Set([
  'al_id',
  'prc',
  'd',
  'token',
  'trgprc',
  'ti',
  'ls',
  'pp',
  'norenordno',
  'avgprc',
  'lp',
  'uc',
  'lc',
]);

const textOf = (key: string, value: unknown): unknown => {
  if (typeof value !== 'number' || !STRING_FIELDS.has(key) || !Number.isFinite(value)) return value;
  if (key === 'al_id' || key === 'norenordno') return Number.isSafeInteger(value) && value >= 0 ? String(value) : value;
  return String(value);
};

const normaliseObject = (object: Record<string, unknown>): Record<string, unknown> => {
  const out: Record<string, unknown> = {};
  // Canonical keys first, so they win over a variant of the same key.
  for (const [key, value] of Object.entries(object)) {
    if (CANONICAL_KEY_SET.has(key)) out[key] = value;
  }
  for (const [key, value] of Object.entries(object)) {
    if (CANONICAL_KEY_SET.has(key)) continue;
    const canonical = KEY_BY_FOLDED.get(key.toLowerCase());
    if (canonical === undefined) out[key] = value;
    else if (!(canonical in out)) out[canonical] = value;
  }
  for (const [key, value] of Object.entries(out)) {
    out[key] = key === 'stat' && typeof value === 'string' ? canonicalStat(value) : textOf(key, normaliseValue(value));
  }
  return out;
};

const normaliseValue = (value: unknown): unknown =>
  Array.isArray(value) ? value.map(normaliseValue) : isRecord(value) ? normaliseObject(value) : value;

/**
 * A broker's parsed reply in any known dialect -> the canonical dialect. Replies in no known dialect come out with
 * their unknown parts as they were, for the strict schema to refuse.
 */
export const toCanonicalDialect = (json: unknown): unknown => normaliseValue(json);
