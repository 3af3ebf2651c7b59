/**
 * The dialects the emulator speaks (docs/reference/emulator.md, "Dialects"). The operations answer in the canonical dialect
 * (`noren`: `OI created`/`OI replaced`/`OI deleted` and lower-case keys, as NorenRestApiPy, the Shoonya and Zebu
 * clients and the service spec read them); in the `2021` dialect the GTT replies are rewritten as the family's API
 * documentation of 2021 shows them (finserv-docs.pages.dev/gtt/..., samples dated 15-04-2021):
 * - ModifyGTTOrder success `Oi Replacedt` (the documentation's misspelling), CancelGTTOrder `Oi delete success`,
 *   both with `Al_id`;
 * - PlaceGTTOrder `Oi created` with `Al_id`: no 2021 place sample is public; the text is the Flattrade/older column
 *   of the family's texts and `Al_id` what the Go client gauravjnigam/norenapigo decodes from a place reply;
 * - GetPendingGTTOrder (and GetTrgOi, which lists the same records) with `Al_id`, `Token`, `Remarks`, `Qty`, `Prc`
 *   at the top of each record (the leg objects keep their lower-case keys: no 2021 sample shows them);
 * - the OCO writes answer like their single-order twins (our choice: the 2021 pages show no OCO);
 * - GetQuotes with `Token` at the top, as the 2021 records spell it (our extrapolation: no 2021 quote sample is
 *   public; the gateway reads any key case, functions/base/broker/dialects.ts).
 * In the `flattrade` dialect the writes answer with Flattrade PiConnect's texts, operation by operation (its GTT
 * pages): PlaceGTTOrder `Oi created`, PlaceOCOOrder `OI created`, ModifyGTTOrder `Oi Replaced`, ModifyOCOOrder
 * `OI replaced`, CancelGTTOrder and CancelOCOOrder `Oi delete success`; keys stay lower case and lists unchanged.
 */
import type { EmulatorReply } from './reply.js';
import type { BrokerOperation } from './routing.js';

export const EMULATOR_DIALECTS = ['noren', '2021', 'flattrade'] as const;
export type EmulatorDialect = (typeof EMULATOR_DIALECTS)[number];

export const isDialect = (value: unknown): value is EmulatorDialect =>
  typeof value === 'string' && (EMULATOR_DIALECTS as readonly string[]).includes(value);

const TEXTS_2021: Record<string, string> = {
  'OI created': 'Oi created',
  'OI replaced': 'Oi Replacedt',
  'OI deleted': 'Oi delete success',
};
const KEYS_2021: Record<string, string> = {
  al_id: 'Al_id',
  token: 'Token',
  remarks: 'Remarks',
  qty: 'Qty',
  prc: 'Prc',
};

/** Flattrade PiConnect's success text of each write (its GTT pages), where it differs from the canonical one. */
const FLATTRADE_TEXTS: Partial<Record<BrokerOperation, Record<string, string>>> = {
  PlaceGTTOrder: { 'OI created': 'Oi created' },
  PlaceOCOOrder: { 'OI created': 'OI created' },
  ModifyGTTOrder: { 'OI replaced': 'Oi Replaced' },
  ModifyOCOOrder: { 'OI replaced': 'OI replaced' },
  CancelGTTOrder: { 'OI deleted': 'Oi delete success' },
  CancelOCOOrder: { 'OI deleted': 'Oi delete success' },
};

const WRITES: readonly BrokerOperation[] = [
  'PlaceGTTOrder',
  'ModifyGTTOrder',
  'CancelGTTOrder',
  'CancelOCOOrder',
  'PlaceOCOOrder',
  'ModifyOCOOrder',
];
const LISTS: readonly BrokerOperation[] = ['GetPendingGTTOrder', 'GetTrgOi'];
/** Replies of one object whose keys the 2021 dialect spells its way. */
const OBJECTS: readonly BrokerOperation[] = ['GetQuotes'];

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** One reply object's top-level keys (and a write's success text) as the 2021 documentation writes them. */
const in2021 = (object: Record<string, unknown>, write: boolean): Record<string, unknown> =>
  Object.fromEntries(
    Object.entries(object).map(([key, value]) => [
      KEYS_2021[key] ?? key,
      write && key === 'stat' && typeof value === 'string' ? (TEXTS_2021[value] ?? value) : value,
    ]),
  );

/** An operation's canonical reply in the given dialect (failures, `Invalid Oi` and other operations unchanged). */
export const speakDialect = (
  dialect: EmulatorDialect,
  operation: BrokerOperation,
  reply: EmulatorReply,
): EmulatorReply => {
  if (dialect === 'noren' || reply.fault) return reply;
  if (dialect === 'flattrade') return inFlattrade(operation, reply);
  const write = WRITES.includes(operation);
  const object = OBJECTS.includes(operation);
  if (!write && !object && !LISTS.includes(operation)) return reply;
  let body: unknown;
  try {
    body = JSON.parse(reply.body);
  } catch {
    return reply;
  }
  if (write && isObject(body) && typeof body.stat === 'string' && body.stat in TEXTS_2021) {
    return { ...reply, body: JSON.stringify(in2021(body, true)) };
  }
  if (object && isObject(body) && body.stat === 'Ok') return { ...reply, body: JSON.stringify(in2021(body, false)) };
  if (!write && Array.isArray(body)) {
    return { ...reply, body: JSON.stringify(body.map((r) => (isObject(r) ? in2021(r, false) : r))) };
  }
  return reply;
};

/** A write's canonical success text as Flattrade writes it for that operation; everything else unchanged. */
const inFlattrade = (operation: BrokerOperation, reply: EmulatorReply): EmulatorReply => {
  const texts = FLATTRADE_TEXTS[operation];
  if (!texts) return reply;
  let body: unknown;
  try {
    body = JSON.parse(reply.body);
  } catch {
    return reply;
  }
  if (!isObject(body) || typeof body.stat !== 'string' || !(body.stat in texts)) return reply;
  return { ...reply, body: JSON.stringify({ ...body, stat: texts[body.stat] }) };
};
