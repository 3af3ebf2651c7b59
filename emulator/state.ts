/** The emulator's state: accounts with their client records, sessions (token -> uid), and GTT orders. */
import { randomBytes } from 'node:crypto';

export const DEMO_UID = 'DEMO01';
export const DEMO_ACTID = 'DEMO01';
export const DEMO_BROKER = 'GTTSIM';

export type OrderState = 'pending' | 'cancelled' | 'triggered';

export interface GttOrder {
  al_id: string;
  uid: string;
  actid: string;
  state: OrderState;
  exch: string;
  tsym: string;
  qty: number;
  prc: string;
  prd: string;
  trantype: string;
  prctyp: string;
  ret: string;
  ai_t: string;
  validity: string;
  d: string;
  remarks: string;
  ordersource: string;
  ipaddr: string;
  norentm: string;
}

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
  partic_id_list: [
    { partic_id: '', exch: 'NSE' },
    { partic_id: '', exch: 'BSE' },
    { partic_id: '', exch: 'NFO' },
    { partic_id: '', exch: 'MCX' },
  ],
  eqt_asba: 'false',
  der_asba: 'false',
  fx_asba: 'false',
  com_asba: 'false',
  mandate_id_list: [],
  exarr: ['NSE', 'BSE', 'NFO', 'MCX', 'CDS'],
  bankdetails: [{ bankn: 'HDFC BANK LTD', acctnum: '50100123456789', ifsc_code: 'HDFC0000060' }],
  dp_acct_num: [{ dpnum: '1208160000000001' }],
});

export class EmulatorState {
  readonly accounts = new Map<string, Account>();
  /** token -> uid; a token removed here is dead (logged out or expired) but stays in `knownTokens`. */
  readonly sessions = new Map<string, string>();
  /** Every token ever issued, for redacting the request log. */
  readonly knownTokens = new Set<string>();
  readonly orders = new Map<string, GttOrder>();
  /** al_id counter: never reset, so an al_id is never reused within a process. */
  private nextId: number;

  constructor() {
    const now = new Date();
    const yymmdd = `${String(now.getUTCFullYear()).slice(2)}${String(now.getUTCMonth() + 1).padStart(2, '0')}${String(now.getUTCDate()).padStart(2, '0')}`;
    this.nextId = Number(`${yymmdd}00001`);
  }

  newAlId(): string {
    return String(this.nextId++);
  }

  addAccount(uid: string, actid: string): Account {
    const account = { uid, actid, client: clientRecordFor(uid, actid) };
    this.accounts.set(uid, account);
    return account;
  }

  addSession(uid: string, token = newToken()): string {
    this.sessions.set(token, uid);
    this.knownTokens.add(token);
    return token;
  }

  clearOrdersAndSessions(): void {
    this.orders.clear();
    this.sessions.clear();
  }
}
