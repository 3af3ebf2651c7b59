/**
 * The rules and fixed data of the emulator's logins (session-login.ts runs them): what a login may be configured
 * with, the checks on its credentials and redirect URL, when a session ends (05:00 India time), the QuickAuth fields
 * and the client record's lists.
 */
import { createHash } from 'node:crypto';

export const IST_OFFSET_MS = 5.5 * 60 * 60 * 1000;

export interface LoginOptions {
  /** The demo account's password (QuickAuth `pwd` is its SHA-256); random when absent. */
  password?: string;
  /** Base32 TOTP seed (QuickAuth `factor2`); random when absent. */
  totpSeed?: string;
  /** The API secret (QuickAuth `appkey` = SHA-256 of `uid|secret`); random when absent. */
  apiSecret?: string;
  /** The OAuth app's client id; `<demo uid>_U` when absent. */
  oauthClientId?: string;
  /** The OAuth app's secret code (GenAcsTok checksum); random when absent. */
  oauthSecret?: string;
  /** Where the authorize step sends the browser with `?code=`; settable later (POST /_emulator/oauth). */
  oauthRedirectUrl?: string;
}

export interface LoginCredentials {
  password: string;
  totpSeed: string;
  apiSecret: string;
}

export interface OAuthApp {
  clientId: string;
  secret: string;
  redirectUrl: string | null;
}

export const sha256Hex = (text: string): string => createHash('sha256').update(text).digest('hex');

export const printable = (value: string, min: number, name: string): string => {
  if (!new RegExp(`^[\\x21-\\x7e]{${min},256}$`).test(value))
    throw new Error(`${name} must be ${min} to 256 printable characters without spaces`);
  return value;
};

export const normaliseSeed = (seed: string): string => {
  const clean = seed.replace(/\s+/g, '').replace(/=+$/, '').toUpperCase();
  if (!/^[A-Z2-7]{16,256}$/.test(clean))
    throw new Error('totpSeed must be base32 (A-Z, 2-7) of at least 16 characters');
  return clean;
};

export const checkRedirectUrl = (value: string): string => {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error('redirectUrl must be an absolute http(s) URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new Error('redirectUrl must be an absolute http(s) URL');
  return value;
};

/** Seconds since the epoch of the next 05:00 India Standard Time after `now`, as a digit string. */
export const nextSessionEnd = (now: Date): string => {
  const ist = new Date(now.getTime() + IST_OFFSET_MS);
  let end = Date.UTC(ist.getUTCFullYear(), ist.getUTCMonth(), ist.getUTCDate(), 5, 0, 0) - IST_OFFSET_MS;
  if (end <= now.getTime()) end += 24 * 60 * 60 * 1000;
  return String(Math.floor(end / 1000));
};

export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export const QUICKAUTH_FIELDS = ['uid', 'pwd', 'factor2', 'imei', 'apkversion', 'vc', 'appkey', 'source'];
export const ORDER_TYPES = ['MKT', 'LMT', 'SL-LMT', 'SL-MKT', 'DS', '2L', '3L'];
export const PRODUCTS = [
  { prd: 'C', s_prdt_ali: 'CNC' },
  { prd: 'M', s_prdt_ali: 'NRML' },
  { prd: 'H', s_prdt_ali: 'CO' },
];
