/**
 * The function set's logger: secrets are masked in whatever is written (a second line of defence: the token is
 * never handed to it), and writing a log line never throws, whatever it is given.
 */
import { Logger } from '@aws-lambda-powertools/logger';
import { afterEach, describe, expect, it } from 'vitest';

import { boundedView, capText } from '../../functions/base/contract/bounded.js';
import { createLogger, logger as sharedLogger, writeLog } from '../../functions/base/runtime/logger.js';
import { redirectLogger } from '../support/logs.js';

type Capturable = { console: Record<string, unknown> };
const capture = <T extends Logger>(target: T): { lines: string[]; logger: T } => {
  const lines: string[] = [];
  redirectLogger(target, (line) => lines.push(line));
  return { lines, logger: target };
};

const SECRETS = [
  'tok-AAAA1111',
  'tok-BBBB2222',
  'jk-CCCC3333',
  'pw-DDDD4444',
  'sec-EEEE5555',
  'totp-123456',
  'chk-FFFF6666',
  'code-GGGG7777',
  'bear-HHHH8888',
];

const logSecrets = (target: Logger) => {
  target.info('calling the broker with Authorization: Bearer bear-HHHH8888 now', {
    headers: { Authorization: 'Bearer tok-AAAA1111', 'content-type': 'text/plain' },
    session: { accessToken: 'tok-AAAA1111', access_token: 'tok-BBBB2222', susertoken: 'tok-BBBB2222', uid: 'DEMO01' },
    login: {
      jKey: 'jk-CCCC3333',
      password: 'pw-DDDD4444',
      PWD: 'pw-DDDD4444',
      Secret: 'sec-EEEE5555',
      totp: 'totp-123456',
      checksum: 'chk-FFFF6666',
      code: 'code-GGGG7777',
    },
    token: 'tok-AAAA1111',
    note: 'retrying with jKey=jk-CCCC3333&uid=DEMO01 and {"accessToken":"tok-BBBB2222"}',
  });
  target.warn('operation failed', {
    code: 'VALIDATION_FAILED',
    status: 400,
    error: new Error('upstream said Bearer bear-HHHH8888'),
  });
};

describe('log masking', () => {
  afterEach(() => sharedLogger.setLogLevel('SILENT'));

  it('masks secret fields (any case, nested) and Bearer values inside text, through a logger built by createLogger', () => {
    const { lines, logger } = capture(createLogger({ serviceName: 'mask-test', logLevel: 'INFO' }));
    logSecrets(logger);
    expect(lines).toHaveLength(2);
    for (const line of lines) for (const secret of SECRETS) expect(line).not.toContain(secret);
    const first = JSON.parse(lines[0]!) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- log line assertions
    expect(first.message).toBe('calling the broker with Authorization: Bearer *** now');
    expect(first.headers).toEqual({ Authorization: '***', 'content-type': 'text/plain' });
    expect(first.session).toEqual({ accessToken: '***', access_token: '***', susertoken: '***', uid: 'DEMO01' });
    expect(first.login).toEqual({
      jKey: '***',
      password: '***',
      PWD: '***',
      Secret: '***',
      totp: '***',
      checksum: '***',
      code: '***',
    });
    expect(first.note).toBe('retrying with jKey=***&uid=DEMO01 and {"accessToken":"***"}');
    // The gateway's own error codes are not secrets.
    expect(JSON.parse(lines[1]!)).toMatchObject({
      code: 'VALIDATION_FAILED',
      status: 400,
      error: { message: 'upstream said Bearer ***' },
    });
  });

  it('the shared logger of the function set masks too', () => {
    const { lines } = capture(sharedLogger);
    sharedLogger.setLogLevel('INFO');
    logSecrets(sharedLogger);
    expect(lines.length).toBe(2);
    for (const line of lines) for (const secret of SECRETS) expect(line).not.toContain(secret);
  });

  it('child loggers keep the masking', () => {
    const { logger } = capture(createLogger({ serviceName: 'mask-test', logLevel: 'INFO' }));
    const child = logger.createChild();
    const { lines } = capture(child);
    child.info('x', { accessToken: 'tok-AAAA1111' });
    expect(lines[0]).not.toContain('tok-AAAA1111');
  });
});

describe('writing a log line never throws', () => {
  const deep = (levels: number): unknown => {
    let value: unknown = 1;
    for (let i = 0; i < levels; i++) value = { a: value };
    return value;
  };

  it('a structure too deep to serialise still gives a line, from the gateway logger', () => {
    const { lines, logger } = capture(createLogger({ serviceName: 't', logLevel: 'INFO' }));
    expect(() => logger.info('deep', { value: deep(200_000), operation: 'PlaceGTTOrder' })).not.toThrow();
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ message: 'deep', logWriteError: expect.any(String) });
  });

  it('writeLog keeps the plain top-level fields when a plain Powertools logger throws', () => {
    const { lines, logger } = capture(new Logger({ serviceName: 't', logLevel: 'INFO' }));
    expect(() =>
      writeLog(logger, 'warn', 'operation failed', { operation: 'PlaceGTTOrder', status: 400, value: deep(200_000) }),
    ).not.toThrow();
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({
      message: 'operation failed',
      operation: 'PlaceGTTOrder',
      status: 400,
      logWriteError: expect.any(String),
    });
  });

  it('writeLog swallows a console that throws', () => {
    const broken = new Logger({ serviceName: 't', logLevel: 'INFO' });
    const fail = () => {
      throw new Error('EPIPE');
    };
    (broken as unknown as Capturable).console = { info: fail, warn: fail, error: fail, debug: fail, log: fail };
    expect(() => writeLog(broken, 'info', 'x', {})).not.toThrow();
  });
});

describe('bounded views of caller input', () => {
  it('caps strings without splitting a surrogate pair', () => {
    expect(capText('x'.repeat(100_000))).toMatch(/^x{256}…\(99744 more characters\)$/);
    expect(capText(`${'x'.repeat(255)}🙂🙂`, 256)).toBe(`${'x'.repeat(255)}…(4 more characters)`);
    expect(capText('short')).toBe('short');
  });

  it('limits depth, keys and items, and keeps JSON-safe scalars', () => {
    const view = boundedView({
      tsym: 'y'.repeat(100_000),
      nested: JSON.parse(`${'['.repeat(3000)}${']'.repeat(3000)}`) as unknown,
      many: Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`k${i}`, i])),
      list: Array.from({ length: 1000 }, (_, i) => i),
      big: 10n ** 30n,
      inf: Number.POSITIVE_INFINITY,
      ['__proto__']: 'own key',
    });
    const text = JSON.stringify(view);
    expect(text.length).toBeLessThan(2_000);
    expect(view).toMatchObject({ big: '1000000000000000000000000000000', inf: 'Infinity' });
    expect(Object.getPrototypeOf(view)).toBe(Object.prototype);
  });
});
