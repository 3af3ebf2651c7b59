/**
 * The two session-less broker calls that issue a token: GenAcsTok (OAuth code -> access token) and QuickAuth
 * (classic login with password hash, TOTP and app key). Neither carries a session; their replies carry tokens,
 * which leave this file only inside the returned session object.
 */
import { createHash } from 'node:crypto';
import { TOTP } from 'otpauth';
import type * as z from 'zod';
import { buildLoginRequest } from '../broker/jdata.js';
import { classifyBrokerFailure } from '../broker/reply.js';
import { postToBroker, TransportFailure } from '../broker/transport.js';
import { BrokerBadReplyError, BrokerRejectedError, BrokerTimeoutError, BrokerUnavailableError, type GatewayError } from '../contract/errors.js';
import { genAcsTokReply, quickAuthReply, type BrokerSession, type LoginCredentials, type OAuthAppSecret } from '../schemas/session.js';

export const sha256Hex = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

interface LoginTarget {
  baseUrl: string;
  timeoutMs: number;
}

const post = async (target: LoginTarget, operation: string, fields: Record<string, string>): Promise<unknown> => {
  let reply;
  try {
    reply = await postToBroker(buildLoginRequest(target.baseUrl, operation, fields), target.timeoutMs);
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
    throw new BrokerBadReplyError(`The broker answered ${operation} with HTTP ${reply.status} and a body that is not JSON.`);
  }
};

/** A login failure: the broker's text (never an echo of what we sent). */
const loginFailure = (operation: string, json: unknown): GatewayError => {
  const emsg = typeof json === 'object' && json !== null && 'emsg' in json && typeof json.emsg === 'string' ? json.emsg : '';
  if (!emsg) return new BrokerBadReplyError(`The broker's ${operation} reply has neither a token nor an error text.`);
  const classified = classifyBrokerFailure(emsg);
  return classified.code === 'BROKER_REJECTED'
    ? new BrokerRejectedError(`The broker refused the ${operation} login: ${emsg}`, { brokerMessage: emsg })
    : classified;
};

const decode = <T>(operation: string, json: unknown, schema: z.ZodType<T>): T => {
  const parsed = schema.safeParse(json);
  if (parsed.success) return parsed.data;
  throw loginFailure(operation, json);
};

/** OAuth: exchange the redirect's `code` for an access token (checksum = sha256(client id + secret code + code)). */
export const exchangeOAuthCode = async (target: LoginTarget, app: OAuthAppSecret, code: string): Promise<BrokerSession> => {
  const json = await post(target, 'GenAcsTok', { code, checksum: sha256Hex(app.clientId + app.secretCode + code), uid: app.uid });
  const reply = decode('GenAcsTok', json, genAcsTokReply);
  return {
    accessToken: reply.access_token,
    uid: reply.uid ?? reply.USERID ?? app.uid,
    actid: reply.actid,
    ...(reply.brkname ? { brkname: reply.brkname } : {}),
  };
};

/** The current TOTP of a base32 seed (RFC 6238: SHA-1, 6 digits, 30 s), computed with the otpauth library. */
export const currentTotp = (seed: string, at = Date.now()): string =>
  new TOTP({ secret: seed, algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp: at });

/** Classic login: QuickAuth with sha256(password), the TOTP, and appkey = sha256(uid + "|" + api secret). */
export const quickAuth = async (target: LoginTarget, credentials: LoginCredentials, at = Date.now()): Promise<BrokerSession> => {
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
