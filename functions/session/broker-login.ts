/**
 * The two session-less broker calls that issue a token: GenAcsTok (OAuth code -> access token) and QuickAuth
 * (classic login with password hash, TOTP and app key). Neither carries a session; their replies carry tokens,
 * which leave this file only inside the returned session object.
 */
import { createHash } from 'node:crypto';

import { TOTP } from 'otpauth';
import type * as z from 'zod';

import { type BrokerRequest, buildLoginRequest } from '../base/broker/jdata.js';
import { classifyBrokerFailure } from '../base/broker/reply.js';
import { postToBroker, TransportFailure } from '../base/broker/transport.js';
import {
  BrokerBadReplyError,
  BrokerRejectedError,
  BrokerTimeoutError,
  BrokerUnavailableError,
  type GatewayError,
} from '../base/contract/errors.js';
import {
  type BrokerSession,
  flattradeTokenReply,
  genAcsTokReply,
  type LoginCredentials,
  type OAuthAppSecret,
  quickAuthReply,
} from '../base/schemas/session.js';

export const sha256Hex = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

interface LoginTarget {
  baseUrl: string;
  timeoutMs: number;
}

const post = (target: LoginTarget, operation: string, fields: Record<string, string>): Promise<unknown> =>
  send(target, operation, buildLoginRequest(target.baseUrl, operation, fields));

const send = async (target: { timeoutMs: number }, operation: string, request: BrokerRequest): Promise<unknown> => {
  let reply;
  try {
    reply = await postToBroker(request, target.timeoutMs);
  } catch (error) {
    if (error instanceof TransportFailure) {
      throw error.kind === 'timeout'
        ? new BrokerTimeoutError(`The broker did not answer ${operation} in time.`)
        : new BrokerUnavailableError(`The broker could not be reached for ${operation}: ${error.message}`);
    }
    throw error;
  }
  try {
    return JSON.parse(reply.text);
  } catch {
    throw new BrokerBadReplyError(
      `The broker answered ${operation} with HTTP ${reply.status} and a body that is not JSON.`,
    );
  }
};

/** A login failure: the broker's text (never an echo of what we sent). */
const loginFailure = (operation: string, json: unknown): GatewayError => {
  const emsg =
    typeof json === 'object' && json !== null && 'emsg' in json && typeof json.emsg === 'string' ? json.emsg : '';
  if (!emsg) return new BrokerBadReplyError(`The broker's ${operation} reply has neither a token nor an error text.`);
  const classified = classifyBrokerFailure(emsg);
  return classified.code === 'BROKER_REJECTED'
    ? new BrokerRejectedError(`The broker refused the ${operation} login; its own words are in brokerMessage.`, {
        brokerMessage: emsg,
      })
    : classified;
};

const decode = <T>(operation: string, json: unknown, schema: z.ZodType<T>): T => {
  const parsed = schema.safeParse(json);
  if (parsed.success) return parsed.data;
  throw loginFailure(operation, json);
};

/**
 * OAuth: exchange the redirect's `code` for an access token (checksum = sha256(client id + secret code + code)).
 * `uid` is sent although the docs leave it out: one broker refuses the exchange without it.
 */
export const exchangeOAuthCode = async (
  target: LoginTarget,
  app: OAuthAppSecret,
  code: string,
): Promise<BrokerSession> => {
  const json = await post(target, 'GenAcsTok', {
    code,
    checksum: sha256Hex(app.clientId + app.secretCode + code),
    uid: app.uid,
  });
  const reply = decode('GenAcsTok', json, genAcsTokReply);
  const uid = reply.uid ?? reply.USERID;
  // Without an account in the reply the session cannot be shown to be this deployment's: nothing is written.
  if (uid === undefined)
    throw new BrokerBadReplyError("The broker's GenAcsTok reply names no account (neither uid nor USERID).");
  return {
    accessToken: reply.access_token,
    uid,
    actid: reply.actid ?? reply.AccountId ?? uid,
    ...(reply.brkname ? { brkname: reply.brkname } : {}),
  };
};

/**
 * Flattrade's own exchange: a JSON POST of `{api_key, request_code, api_secret}` with api_secret =
 * sha256(api_key + code + secret) to its token URL; the reply's `token` is a jKey session, `client` the account.
 */
export const exchangeFlattradeCode = async (
  target: { tokenUrl: string; timeoutMs: number },
  app: OAuthAppSecret,
  code: string,
): Promise<BrokerSession> => {
  const body = JSON.stringify({
    api_key: app.clientId,
    request_code: code,
    api_secret: sha256Hex(app.clientId + code + app.secretCode),
  });
  const json = await send(target, 'the token exchange', {
    url: target.tokenUrl,
    headers: { 'Content-Type': 'application/json' },
    body,
  });
  const reply = decode('token exchange', json, flattradeTokenReply);
  return { accessToken: reply.token, uid: reply.client, actid: reply.client };
};

/** The current TOTP of a base32 seed (RFC 6238: SHA-1, 6 digits, 30 s), computed with the otpauth library. */
export const currentTotp = (seed: string, at = Date.now()): string =>
  new TOTP({ secret: seed, algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp: at });

/** Classic login: QuickAuth with sha256(password), the TOTP, and appkey = sha256(uid + "|" + api secret). */
export const quickAuth = async (
  target: LoginTarget,
  credentials: LoginCredentials,
  at = Date.now(),
): Promise<BrokerSession> => {
  const json = await post(target, 'QuickAuth', {
    source: 'API',
    apkversion: '1.0.0',
    uid: credentials.uid,
    pwd: sha256Hex(credentials.password),
    factor2: currentTotp(credentials.totpSeed, at),
    vc: credentials.vendorCode ?? `${credentials.uid}_U`,
    appkey: sha256Hex(`${credentials.uid}|${credentials.apiSecret}`),
    imei: credentials.imei ?? 'gtt-gateway',
  });
  const reply = decode('QuickAuth', json, quickAuthReply);
  return {
    accessToken: reply.susertoken,
    uid: credentials.uid,
    actid: reply.actid ?? credentials.uid,
    ...(reply.brkname ? { brkname: reply.brkname } : {}),
  };
};
