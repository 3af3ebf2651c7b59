/**
 * The emulator's switched behaviours (settable at start and through `/_emulator/switches`), and what an operation
 * handler reads of the emulator.
 */
import type { OrderBook } from './order-book.js';
import type { EmulatorState } from './state.js';

export interface Switches {
  /** Accept the demo token and OAuth access tokens as `&jKey=` too (QuickAuth and Flattrade tokens always are). */
  acceptJKey: boolean;
  invalidInputAs400: boolean;
  emptyListAsArray: boolean;
  /** The login pages pass a `state` through to the redirect (off: `code` only, as the live brokers are seen to). */
  echoOAuthState: boolean;
  /** Accept jKey tokens (QuickAuth, Flattrade) as Bearer too (off: no client does it, and a broker may refuse it). */
  acceptJKeyTokenAsBearer: boolean;
  /**
   * Accept MKT and SL-MKT orders from the API (off: refused with `ALGO_CHK: MKT Order type not allowed for API order`,
   * as the Noren brokers answer since the 2026 algo rules).
   */
  acceptApiMarketOrders: boolean;
  /**
   * Count order writes (place, modify, cancel; single and OCO) per user in each calendar second and refuse the
   * 11th and later with the Noren text `Invalid Input : Order Recieved 11 in a current second exceeds Limit 10 for
   * user`. Off by default: the emulator's own load tests send hundreds a second.
   */
  enforceOrderRate: boolean;
  /** Take an order for any symbol (off: only the shipped list, state/symbols.ts, as a broker lists its own). */
  acceptAnySymbol: boolean;
  /**
   * GenAcsTok takes `{code, checksum}` without `uid` (the account is the code's), as a 2026 Selenium client of a live
   * broker sends it. Off: refused with `Invalid Input : INVALID_VERIFIER`, as a unified gateway's maintainers report
   * of Shoonya (June 2026). A `uid` that is sent must be the code's either way. See docs/reference/emulator.md.
   */
  genAcsTokWithoutUid: boolean;
}

export const SWITCH_NAMES = [
  'acceptJKey',
  'invalidInputAs400',
  'emptyListAsArray',
  'echoOAuthState',
  'acceptJKeyTokenAsBearer',
  'acceptApiMarketOrders',
  'enforceOrderRate',
  'acceptAnySymbol',
  'genAcsTokWithoutUid',
] as const;

export const TOKEN_PATTERN = /^[\x21-\x7e]{8,256}$/;

/** The switches as the options set them (every one off unless named). */
export const startSwitches = (options: Partial<Switches>): Switches => ({
  acceptJKey: options.acceptJKey ?? false,
  invalidInputAs400: options.invalidInputAs400 ?? false,
  emptyListAsArray: options.emptyListAsArray ?? false,
  echoOAuthState: options.echoOAuthState ?? false,
  acceptJKeyTokenAsBearer: options.acceptJKeyTokenAsBearer ?? false,
  acceptApiMarketOrders: options.acceptApiMarketOrders ?? false,
  enforceOrderRate: options.enforceOrderRate ?? false,
  acceptAnySymbol: options.acceptAnySymbol ?? false,
  genAcsTokWithoutUid: options.genAcsTokWithoutUid ?? false,
});

/** What the operation handlers (emulator/operations/) read and change of the emulator. */
export interface OperationContext {
  state: EmulatorState;
  book: OrderBook;
  switches: Switches;
  now: () => Date;
}
