/**
 * The family's daily symbol master of an exchange, read (docs/explanation/exchange-rules.md, "The symbol master"): a zip
 * (`NSE_symbols.txt.zip`) of a text with a header row, e.g.
 *
 *   Exchange,Token,LotSize,Symbol,TradingSymbol,Instrument,TickSize,
 *   NSE,2885,1,RELIANCE,RELIANCE-EQ,EQ,0.05,
 *   Exchange,Token,LotSize,Symbol,TradingSymbol,Expiry,Instrument,OptionType,StrikePrice,TickSize,
 *   NFO,42697,50,NIFTY,NIFTY27JUL23F,27-JUL-2023,FUTIDX,XX,-0.01,0.05,
 *
 * Dialects read alike: comma or pipe separated, a trailing separator or none, CRLF or LF, a byte-order mark, header
 * names in any case and order with spaces around them, blank lines. Columns are found by their header names; a
 * file without Exchange, Token, TradingSymbol, LotSize and TickSize columns is refused whole. A row whose token,
 * lot or tick is not a positive number is skipped and counted, never guessed. The master carries no price
 * precision: it is the tick's decimals, at least 2 (the family's `pp`: 2 for equities and F&O, 4 for currency).
 *
 * The derivatives' columns are read where the header has them (Symbol, Expiry `08-DEC-2026` in any case, Instrument,
 * OptionType, StrikePrice, or Strike as the BFO master names it) on a row with an expiry (a derivative), each kept only when it reads cleanly (the expiry as
 * `YYYY-MM-DD`, a strike above zero: a future's `-0.01` is none, its `XX` option type too); any other row stays as
 * it was. The day's
 * option chains are made of them (chain.ts, docs/reference/options.md).
 */
import { firstZipEntry } from './unzip.js';

/** An instrument as the master lists it. */
export interface MasterRow {
  exch: string;
  token: string;
  tsym: string;
  lot: number;
  tick: string;
  precision: number;
  /** The underlying's name (`NIFTY`), where the master has a Symbol column. */
  symbol?: string;
  /** The contract's expiry, India's date `YYYY-MM-DD`. */
  expiry?: string;
  /** `OPTIDX`, `OPTSTK`, `FUTIDX`, `EQ`, ... */
  instrument?: string;
  optionType?: 'CE' | 'PE';
  strike?: number;
}

/** The largest master read (NFO's is about 10 MB unzipped). */
export const MAX_MASTER_BYTES = 64 * 1024 * 1024;

const REQUIRED = ['exchange', 'token', 'tradingsymbol', 'lotsize', 'ticksize'] as const;
const OPTIONAL = ['symbol', 'expiry', 'instrument', 'optiontype', 'strikeprice', 'strike'] as const;

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];

/** `08-DEC-2026` (any case) -> `2026-12-08`; anything else -> undefined. */
export const expiryDate = (text: string): string | undefined => {
  const match = /^(\d{1,2})-([A-Za-z]{3})-(\d{4})$/.exec(text);
  if (!match) return undefined;
  const month = MONTHS.indexOf(match[2]!.toUpperCase()) + 1;
  const day = Number(match[1]);
  const date = `${match[3]}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
  if (month < 1 || Number.isNaN(Date.parse(`${date}T00:00:00Z`))) return undefined;
  return new Date(`${date}T00:00:00Z`).getUTCDate() === day ? date : undefined;
};

/** The derivatives' columns of a row, each only where it reads cleanly. */
const contractOf = (
  field: (name: (typeof OPTIONAL)[number]) => string,
): Pick<MasterRow, 'symbol' | 'expiry' | 'instrument' | 'optionType' | 'strike'> => {
  const expiry = expiryDate(field('expiry'));
  if (!expiry) return {};
  const symbol = field('symbol');
  const instrument = field('instrument').toUpperCase();
  const type = field('optiontype').toUpperCase();
  const strikeText = field('strikeprice') || field('strike');
  const strike = /^\d+(\.\d+)?$/.test(strikeText) ? Number(strikeText) : 0;
  return {
    ...(symbol ? { symbol } : {}),
    expiry,
    ...(instrument ? { instrument } : {}),
    ...(type === 'CE' || type === 'PE' ? { optionType: type } : {}),
    ...(strike > 0 ? { strike } : {}),
  };
};

const positiveDecimal = (text: string): boolean => /^\d+(\.\d+)?$/.test(text) && Number(text) > 0;

/** "0.0500" -> "0.05", "5" -> "5", as the tick is compared and shown. */
const tickText = (text: string): string => (text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text);

export const parseMaster = (text: string): { rows: MasterRow[]; skipped: number } => {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const headerAt = lines.findIndex((line) => line.trim() !== '');
  if (headerAt < 0) throw new Error('the symbol master is empty');
  const header = lines[headerAt]!;
  const separator = header.includes('|') && !header.includes(',') ? '|' : ',';
  const names = header.split(separator).map((name) => name.trim().toLowerCase());
  const missing = REQUIRED.filter((name) => !names.includes(name));
  if (missing.length > 0)
    throw new Error(`the symbol master has no ${missing.join(', ')} column (header: ${header.slice(0, 200)})`);
  const at = Object.fromEntries(REQUIRED.map((name) => [name, names.indexOf(name)])) as Record<
    (typeof REQUIRED)[number],
    number
  >;
  const optionalAt = OPTIONAL.map((name) => [name, names.indexOf(name)] as const);
  const rows: MasterRow[] = [];
  let skipped = 0;
  for (const line of lines.slice(headerAt + 1)) {
    if (line.trim() === '') continue;
    const fields = line.split(separator).map((field) => field.trim());
    const exch = fields[at.exchange] ?? '';
    const token = fields[at.token] ?? '';
    const tsym = fields[at.tradingsymbol] ?? '';
    const lot = Number(fields[at.lotsize]);
    const tick = fields[at.ticksize] ?? '';
    if (!exch || !tsym || !/^\d+$/.test(token) || !Number.isInteger(lot) || lot <= 0 || !positiveDecimal(tick)) {
      skipped += 1;
      continue;
    }
    const decimals = (tickText(tick).split('.')[1] ?? '').length;
    const contract = contractOf((name) => {
      const index = optionalAt.find(([n]) => n === name)![1];
      return index < 0 ? '' : (fields[index] ?? '');
    });
    rows.push({ exch, token, tsym, lot, tick: tickText(tick), precision: Math.max(2, decimals), ...contract });
  }
  return { rows, skipped };
};

/** The master of `exch` at `url` (`{exch}` replaced), zipped or plain: its rows, or an error naming the URL. */
export const fetchMaster = async (
  url: string,
  timeoutMs: number,
  fetchImpl: typeof fetch = fetch,
): Promise<{ rows: MasterRow[]; skipped: number; bytes: number }> => {
  const reply = await fetchImpl(url, { signal: AbortSignal.timeout(timeoutMs) });
  if (!reply.ok) throw new Error(`${url} answered HTTP ${reply.status}`);
  const body = Buffer.from(await reply.arrayBuffer());
  if (body.length > MAX_MASTER_BYTES) throw new Error(`${url} is above ${MAX_MASTER_BYTES} bytes`);
  const zipped = body.length >= 4 && body.readUInt32LE(0) === 0x04034b50;
  const text = zipped ? firstZipEntry(body, MAX_MASTER_BYTES).content.toString('utf8') : body.toString('utf8');
  return { ...parseMaster(text), bytes: body.length };
};

/**
 * Where an exchange's master is: the setting's template with `{exch}` (SYMBOL_MASTER_URL), or by default the
 * broker API host's root, as the family serves it (`https://api.shoonya.com/NSE_symbols.txt.zip` beside
 * `https://api.shoonya.com/NorenWClientTP/`).
 */
export const masterUrl = (exch: string, brokerBaseUrl: string, template?: string): string =>
  (template ?? `${new URL(brokerBaseUrl).origin}/{exch}_symbols.txt.zip`).replaceAll(
    '{exch}',
    encodeURIComponent(exch),
  );
