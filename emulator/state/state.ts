/**
 * The emulator's state: accounts with their client records, sessions (token -> uid), GTT and OCO orders, the last
 * traded prices the sandbox was told, and the OAuth codes waiting to be exchanged.
 */
import { randomBytes } from 'node:crypto';

import type { MarketFigures } from './alert-rules.js';
import { DaySeries } from './day-series.js';
import type { StartPrices } from './prices.js';

export const DEMO_UID = 'DEMO01';
export const DEMO_ACTID = 'DEMO01';
export const DEMO_BROKER = 'GTTSIM';

/** Every exchange name brokers of this family list in a client record's `exarr`; each account has them all. */
export const EXCHANGES = ['CDS', 'NSE', 'NFO', 'MCX', 'BSE', 'NCX', 'BSTAR', 'BCD', 'BFO', 'NCOM'] as const;

export type OrderState = 'pending' | 'cancelled' | 'triggered';
export type LegName = 'x' | 'y';

/** How an order fired (set when `state` becomes `triggered`). */
export interface Trigger {
  /** `HH:MM:SS DD-MM-YYYY`, India Standard Time. */
  at: string;
  /** Order of firing within the process (GetTrgOi lists oldest first). */
  seq: number;
  leg: LegName;
  /** The trigger value that was crossed. */
  d: string;
  /** The last traded price that crossed it. */
  ltp: string;
}

interface OrderCommon {
  al_id: string;
  uid: string;
  actid: string;
  state: OrderState;
  exch: string;
  /** Decoded (the wire carries it URL-encoded). */
  tsym: string;
  ai_t: string;
  validity: string;
  remarks: string;
  ordersource: string;
  ipaddr: string;
  /** Entry (or last modification) time, `HH:MM:SS DD-MM-YYYY`. */
  norentm: string;
  trigger?: Trigger;
}

/** A single-trigger GTT (PlaceGTTOrder). */
export interface GttOrder extends OrderCommon {
  kind: 'gtt';
  qty: number;
  prc: string;
  prd: string;
  trantype: string;
  prctyp: string;
  ret: string;
  d: string;
}

/** One leg of an OCO: the order that is sent when its trigger is crossed. */
export interface OrderLeg {
  trantype: string;
  prctyp: string;
  prd: string;
  ret: string;
  actid: string;
  ordersource: string;
  qty: number;
  prc: string;
  /** Empty when not given. */
  trgprc: string;
}

/** A two-leg OCO GTT (PlaceOCOOrder): `x` pairs with leg 1 (target), `y` with leg 2 (stop-loss). */
export interface OcoOrder extends OrderCommon {
  kind: 'oco';
  x: string;
  y: string;
  legs: { x: OrderLeg; y: OrderLeg };
  /** Whether each leg fires when the price rises to its trigger (true) or falls to it (false); decided at entry. */
  xRises: boolean;
  yRises: boolean;
}

export type Order = GttOrder | OcoOrder;

export interface ClientRecord {
  actid: string;
  cliname: string;
  act_sts: string;
  creatdte: string;
  creattme: string;
  m_num: string;
  email: string;
  pan: string;
  dob: string;
  addr: string;
  addroffice: string;
  addrcity: string;
  addrstate: string;
  partic_id_list: { partic_id: string; exch: string }[];
  eqt_asba: string;
  der_asba: string;
  fx_asba: string;
  com_asba: string;
  mandate_id_list: { mandate_id: string }[];
  exarr: string[];
  bankdetails: { bankn: string; acctnum: string; ifsc_code: string }[];
  dp_acct_num: { dpnum: string }[];
}

export interface Account {
  uid: string;
  actid: string;
  client: ClientRecord;
}

/** An OAuth authorization code waiting for GenAcsTok. */
export interface OAuthCode {
  uid: string;
  clientId: string;
  expiresAt: number;
  /** The login that issued it: GenAcsTok exchanges `oauth` codes, Flattrade's token URL `flattrade` ones. */
  flavour: 'oauth' | 'flattrade';
}

/** How a session token may travel: `bearer` (OAuth access tokens, the demo token) or `jkey` (QuickAuth, Flattrade). */
export type TokenStyle = 'bearer' | 'jkey';

export const newToken = (): string => randomBytes(16).toString('hex');

export const clientRecordFor = (uid: string, actid: string): ClientRecord => ({
  actid,
  cliname: uid === DEMO_UID ? 'DEMO TRADER' : `SANDBOX USER ${uid}`,
  act_sts: 'Activated',
  creatdte: '20230415',
  creattme: '103512',
  m_num: '9876543210',
  email: `${uid.toLowerCase()}@example.com`,
  pan: 'ABCDE1234F',
  dob: '',
  addr: '12 MARINE DRIVE',
  addroffice: '',
  addrcity: 'MUMBAI',
  addrstate: 'MAHARASHTRA',
  partic_id_list: EXCHANGES.map((exch) => ({ partic_id: '', exch })),
  eqt_asba: 'false',
  der_asba: 'false',
  fx_asba: 'false',
  com_asba: 'false',
  mandate_id_list: [],
  exarr: [...EXCHANGES],
  bankdetails: [{ bankn: 'HDFC BANK LTD', acctnum: '50100123456789', ifsc_code: 'HDFC0000060' }],
  dp_acct_num: [{ dpnum: '1208160000000001' }],
});

export const ltpKey = (exch: string, tsym: string): string => `${exch}|${tsym}`;

export class EmulatorState {
  readonly accounts = new Map<string, Account>();
  /** token -> uid; a token removed here is dead (logged out or expired) but stays in `knownTokens`. */
  readonly sessions = new Map<string, string>();
  /** Every token ever issued (session tokens and refresh tokens), for redacting the request log. */
  readonly knownTokens = new Set<string>();
  /** Tokens issued as jKey sessions (QuickAuth, Flattrade): refused as Bearer unless switched on. */
  readonly jkeyTokens = new Set<string>();
  readonly orders = new Map<string, Order>();
  /** The last traded price per `exch|tsym`, as set through the control surface. */
  readonly ltps = new Map<string, number>();
  /** The previous close per `exch|tsym` (today's price band is around it): the start's or the control surface's. */
  readonly closes = new Map<string, number>();
  /** The average traded price, open interest and volume per `exch|tsym` the control surface set (alert-rules.ts). */
  readonly figures = new Map<string, MarketFigures>();
  /** The `exch|tsym` whose close is the start table's (a move by hand far outside its band starts a new day). */
  readonly startCloses = new Set<string>();
  /** The `exch|tsym` whose price the control surface cleared: not opened at the start price again until a reset. */
  readonly cleared = new Set<string>();
  /** Whether the market opens with a price for every shipped symbol (`start`) or none (`none`). */
  startPrices: StartPrices = 'none';
  /** Each symbol's price moves of the day (TPSeries). */
  readonly series = new DaySeries();
  /** `exch|token` -> tsym of the instruments SearchScrip or a price named (GetSecurityInfo reads by token). */
  readonly instruments = new Map<string, string>();
  /** Authorization code -> who it was issued to; single use, 5 minutes. */
  readonly oauthCodes = new Map<string, OAuthCode>();
  /** al_id counter: never reset, so an al_id is never reused within a process (nor across restarts of a day). */
  private nextId: number;
  /** Order numbers (`norenordno`) of the orders fired GTTs place: the same scheme, a counter of their own. */
  private nextOrderNumber: number;
  private triggerSeq = 0;

  constructor(now = new Date()) {
    // 14 digits: YYMMDD (IST date at start) followed by an 8-digit counter, like the broker's ids. The counter starts
    // at the hundredths of a second since IST midnight (at most 8,640,000), so a restarted sandbox never reissues an
    // al_id of the same day (as the broker's are unique within a day) unless a run placed more than 100 orders per
    // second of its life; the 8 digits leave room for 91 million orders after the latest start.
    const ist = new Date(now.getTime() + 5.5 * 60 * 60 * 1000);
    const yymmdd = `${String(ist.getUTCFullYear()).slice(2)}${String(ist.getUTCMonth() + 1).padStart(2, '0')}${String(ist.getUTCDate()).padStart(2, '0')}`;
    const sinceMidnight = ist.getTime() - Date.UTC(ist.getUTCFullYear(), ist.getUTCMonth(), ist.getUTCDate());
    this.nextId = Number(yymmdd) * 1e8 + Math.floor(sinceMidnight / 10) + 1;
    // Far from the al_ids of the day, so an order number is never mistaken for a GTT id.
    this.nextOrderNumber = this.nextId + 50_000_000;
  }

  newAlId(): string {
    return String(this.nextId++);
  }

  newOrderNumber(): string {
    return String(this.nextOrderNumber++);
  }

  nextTriggerSeq(): number {
    return ++this.triggerSeq;
  }

  addAccount(uid: string, actid: string): Account {
    const account = { uid, actid, client: clientRecordFor(uid, actid) };
    this.accounts.set(uid, account);
    return account;
  }

  addSession(uid: string, token = newToken(), style: TokenStyle = 'bearer'): string {
    this.sessions.set(token, uid);
    this.knownTokens.add(token);
    if (style === 'jkey') this.jkeyTokens.add(token);
    return token;
  }

  clearOrdersAndSessions(): void {
    this.orders.clear();
    this.sessions.clear();
    this.jkeyTokens.clear();
    this.ltps.clear();
    this.closes.clear();
    this.figures.clear();
    this.startCloses.clear();
    this.cleared.clear();
    this.series.clear();
    this.oauthCodes.clear();
  }
}
