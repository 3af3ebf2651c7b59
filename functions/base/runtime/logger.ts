/**
 * One Powertools Logger for the function set. The access token is never handed to it; as a second line of
 * defence, every line is masked as it is serialised (Powertools' `jsonReplacerFn`): the values of secret-looking
 * keys (`authorization`, `accessToken`, `access_token`, `token`, `susertoken`, `jKey`, `password`, `pwd`, `secret`,
 * `totp`, `checksum`, `code`, … in any case, at any depth) become `***`, and so do `Bearer …` values and
 * `jKey=…`-style pairs inside any string. And writing a line never throws: a line that cannot be serialised is
 * replaced by a short one saying so, and a broken console is ignored, so logging can never fail a request.
 */
import { Logger } from '@aws-lambda-powertools/logger';
import type { ConstructorOptions, LogItemExtraInput, LogItemMessage } from '@aws-lambda-powertools/logger/types';

import { capText } from '../contract/bounded.js';
import { ERROR_CATALOG } from '../contract/errors.js';
import { redactText } from '../contract/redact.js';
import { SERVICE_NAME } from '../schemas/names.js';

export const MASK = '***';

/** Secret keys, compared in lower case without `-` and `_` (so `access_token`, `accessToken`, `Access-Token`). */
const SECRET_KEYS = new Set([
  'authorization',
  'proxyauthorization',
  'accesstoken',
  'refreshtoken',
  'idtoken',
  'token',
  'susertoken',
  'jkey',
  'password',
  'passwd',
  'pwd',
  'secret',
  'clientsecret',
  'apikey',
  'xapikey',
  'totp',
  'otp',
  'checksum',
  'code',
  'cookie',
  'setcookie',
]);
/** Keys ending like these are secrets too (`sessionToken`, `apiSecret`, `userPassword`). */
const SECRET_SUFFIXES = ['token', 'secret', 'password'];

const squashKey = (key: string): string => key.toLowerCase().replace(/[-_]/g, '');

export const isSecretKey = (key: string): boolean => {
  const squashed = squashKey(key);
  return SECRET_KEYS.has(squashed) || SECRET_SUFFIXES.some((suffix) => squashed.endsWith(suffix));
};

/** `code` also names the gateway's own error codes and Node's (`ECONNRESET`, `ERR_…`): those are not secrets. */
const isHarmlessCode = (key: string, value: unknown): boolean =>
  squashKey(key) === 'code' &&
  typeof value === 'string' &&
  (value in ERROR_CATALOG || /^(E[A-Z]+|ERR_[A-Z0-9_]+)$/.test(value));

/** `Bearer xyz`, `Basic xyz` in free text. */
const AUTH_SCHEME = /\b(Bearer|Basic)\s+[A-Za-z0-9\-._~+/]+=*/gi;
/** `jKey=xyz`, `"accessToken":"xyz"`, `password: xyz` in free text (form bodies, JSON text, messages). */
const SECRET_PAIR =
  /\b(access_?token|refresh_?token|susertoken|jkey|password|passwd|pwd|secret|totp|checksum|token)(["']?\s*[:=]\s*["']?)[^\s"'&,;}]+/gi;

export const maskText = (text: string): string =>
  // Then the secret values this container knows (its session tokens), wherever they stand.
  redactText(
    text.replace(AUTH_SCHEME, (_match, scheme: string) => `${scheme} ${MASK}`).replace(SECRET_PAIR, `$1$2${MASK}`),
    MASK,
  );

/** The JSON replacer every line goes through: secret keys masked at any depth, secrets in text masked. */
export const maskSecrets = (key: string, value: unknown): unknown => {
  if (key !== '' && value !== undefined && value !== null && isSecretKey(key) && !isHarmlessCode(key, value))
    return MASK;
  return typeof value === 'string' ? maskText(value) : value;
};

const describe = (error: unknown): string =>
  capText(error instanceof Error ? `${error.name}: ${error.message}` : `a thrown ${typeof error}`, 200);

/** A Logger whose lines are masked and whose writes never throw; its child loggers are the same. */
export class GatewayLogger extends Logger {
  constructor(options: ConstructorOptions = {}) {
    super({ ...options, jsonReplacerFn: options.jsonReplacerFn ?? maskSecrets } as ConstructorOptions);
  }

  protected override createLogger(options?: ConstructorOptions): Logger {
    return new GatewayLogger(options);
  }

  protected override processLogItem(logLevel: number, input: LogItemMessage, extraInput: LogItemExtraInput): void {
    try {
      super.processLogItem(logLevel, input, extraInput);
    } catch (error) {
      // Too deep or too odd to serialise: say so on a line of its own, rather than fail the request.
      const message =
        typeof input === 'string' ? input : typeof input?.message === 'string' ? input.message : 'log line';
      try {
        super.processLogItem(logLevel, { message: capText(message), logWriteError: describe(error) }, []);
      } catch {
        // Not even that could be written (a broken console): a log line is never worth failing a request for.
      }
    }
  }
}

export const createLogger = (options: ConstructorOptions = {}): GatewayLogger =>
  new GatewayLogger({ serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? SERVICE_NAME, ...options });

/** The function set's logger. Its level comes from POWERTOOLS_LOG_LEVEL as it is when this module is first loaded. */
export const logger = createLogger();

export type LogLevelName = 'info' | 'warn' | 'error';

/**
 * Writes one line through any Powertools Logger (the function set's, or one a test or caller passes in) and never
 * throws. If the line cannot be written, a line with the plain top-level fields (strings capped, numbers, booleans)
 * and the reason is written instead; if even that fails, nothing is.
 */
export const writeLog = (
  target: Logger,
  level: LogLevelName,
  message: string,
  fields: Record<string, unknown>,
): void => {
  try {
    target[level](message, fields);
  } catch (error) {
    try {
      const plain = Object.fromEntries(
        Object.entries(fields)
          .filter(([, value]) => ['string', 'number', 'boolean'].includes(typeof value))
          .map(([key, value]) => [key, typeof value === 'string' ? capText(value) : value]),
      );
      target[level](message, { ...plain, logWriteError: describe(error) });
    } catch {
      // A log line is never worth failing a request for.
    }
  }
};
