/**
 * Property-based tests: thousands of generated requests per operation through the real handler (both entry
 * shapes), against the emulator. The generators mix valid fields with hostile ones: deep nesting, unpaired
 * surrogates, numbers beyond 2^53 and beyond a double (`1e400` in the raw JSON text), huge strings, unknown and
 * misspelt query parameters, option look-alikes in headers and payloads.
 *
 * Every reply must be inside the error contract (a result, or `{error: {code, message}}` with the code's status;
 * `details` of VALIDATION_FAILED as `{field, message}`; small, whatever the input), the only 5xx a broker or
 * configuration failure, never INTERNAL_ERROR; every request must write exactly one access line (and, for order
 * operations, one audit record); rejected input must never reach the broker; and the token must never appear in
 * a reply, an error or a log line.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ERROR_CATALOG, type ErrorCode, errorName } from '../../functions/base/contract/errors.js';
import type { AnyOperation } from '../../functions/base/contract/operation.js';
import { createLogger } from '../../functions/base/runtime/logger.js';
import { OPERATIONS } from '../../functions/manifest/index.js';
import { createGatewayHandler, type GatewayHandler } from '../../functions/orders/gateway/gateway-handler.js';
import { lambdaContext } from '../../local/lambda-context.js';
import { type LocalStack, startLocalStack } from '../../local/run-local.js';
import { type EmulatorControl, emulatorControl } from '../support/emulator-control.js';
import { httpApiEvent } from '../support/events.js';
import { redirectLogger } from '../support/logs.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 1000);
const ERROR_NAMES = new Set(Object.keys(ERROR_CATALOG).map((code) => errorName(code as ErrorCode)));
/** Refused before any broker call. */
const REJECTIONS = new Set<string>(['VALIDATION_FAILED', 'GUARDRAIL_REJECTED', 'CONFIGURATION_ERROR']);
/** The only codes that may answer 5xx: the broker's failures and the deployment's configuration. */
const ALLOWED_5XX = new Set<string>([
  'BROKER_TIMEOUT',
  'BROKER_UNAVAILABLE',
  'BROKER_BAD_REPLY',
  'SESSION_EXPIRED',
  'CONFIGURATION_ERROR',
]);
/** No error reply echoes enough of the input to get near this. */
const MAX_ERROR_REPLY = 8_000;

let stack: LocalStack;
let control: EmulatorControl;
const logLines: string[] = [];
/** Access lines and audit records written so far, counted as they are written. */
const written = { access: 0, audit: 0 };
let handlers: Map<string, GatewayHandler>;

beforeAll(async () => {
  const logger = createLogger({ serviceName: 'fuzz', logLevel: 'INFO' });
  const write = (line: string) => {
    logLines.push(line);
    if (line.includes('"operation succeeded"') || line.includes('"operation failed"')) written.access++;
    if (line.includes('"order action"')) written.audit++;
  };
  redirectLogger(logger, write);
  // Odd symbols on purpose (encoding on the wire), so the emulator takes any symbol.
  stack = await startLocalStack({
    acceptAnySymbol: true,
    settings: { IDEMPOTENCY_KEY_REQUIRED: false, GUARDRAIL_MAX_QTY: 100000, GUARDRAIL_MAX_ORDER_VALUE: 'off' },
    gateway: { logger },
  });
  control = emulatorControl(stack.emulator.url);
  handlers = new Map(
    OPERATIONS.map((op) => [
      op.name,
      createGatewayHandler(op, { config: { ...stack.config, IDEMPOTENCY_TABLE_NAME: undefined }, logger }),
    ]),
  );
});

afterAll(async () => {
  await stack?.close();
});

/** A value written into the JSON text as it is: `"__raw:1e400__"` becomes `1e400`. */
const RAW = (token: string) => `__raw:${token}__`;
const toJsonText = (value: unknown): string => JSON.stringify(value).replace(/"__raw:([^"]*)__"/g, '$1');

const nested = (depth: number, kind: 'array' | 'object'): unknown => {
  let value: unknown = kind === 'array' ? [] : 1;
  for (let i = 0; i < depth; i++) value = kind === 'array' ? [value] : { a: value };
  return value;
};

const symbols = [
  'M&M-EQ',
  'L&TFH-EQ',
  'NIFTY 25DEC 24000 CE',
  '%',
  '+',
  '=',
  'RELIANCE-EQ',
  'ÄÖÜ',
  '🙂',
  'a\u0000b',
  '../../etc',
];
const loneSurrogate = fc
  .tuple(
    fc.string({ maxLength: 5 }),
    fc.constantFrom('\ud800', '\udbff', '\udc00', '\udfff', '\ud83d'),
    fc.string({ maxLength: 5 }),
  )
  .map(([a, s, b]) => `${a}${s}${b}`);
const invisible = fc
  .tuple(
    fc.constantFrom(...symbols.slice(0, 3)),
    fc.constantFrom('\u200b', '\u200d', '\u202e', '\u2066', '\ufeff', '\u2028', '\u00a0', '\u00ad'),
  )
  .map(([s, c]) => `${s}${c}`);
const hugeNumber = fc.oneof(
  fc.constantFrom(2 ** 53, 2 ** 53 + 2, 1e21, Number.MAX_VALUE, Number.MAX_SAFE_INTEGER, -(2 ** 60)),
  fc
    .constantFrom('1e400', '-1e400', '26112200000000001', '9'.repeat(400), '1e-400', '123456789012345678901234567890.5')
    .map(RAW),
);
const deep = fc
  .tuple(fc.integer({ min: 100, max: 4000 }), fc.constantFrom<'array' | 'object'>('array', 'object'))
  .map(([depth, kind]) => nested(depth, kind));

const weird = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ minLength: 1000, maxLength: 20000 }),
  fc.integer(),
  fc.double(),
  fc.constantFrom('1e3', '-1', '0x10', '1.5e-7', ' 5 ', '', 'NaN', 'Infinity', '00012', '1.123456789', '9'.repeat(40)),
  fc.constant(null),
  fc.boolean(),
  fc.array(fc.integer(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.integer(), { maxKeys: 2 }),
  fc.constantFrom({ toString: 1 }, { valueOf: 'x' }, { __proto__: null }),
  loneSurrogate,
  invisible,
  hugeNumber,
  deep,
);
const valid: Record<string, fc.Arbitrary<unknown>> = {
  exch: fc.constantFrom('NSE', 'NFO', 'BSE', 'MCX'),
  tsym: fc.constantFrom(...symbols),
  qty: fc.oneof(fc.integer({ min: 1, max: 1000 }), fc.integer({ min: 1, max: 1000 }).map(String)),
  prc: fc.oneof(
    fc.constant('0'),
    fc.integer({ min: 1, max: 100000 }).map((n) => (n / 100).toFixed(2)),
    fc.integer({ min: 1, max: 5000 }),
  ),
  prd: fc.constantFrom('C', 'M', 'H'),
  trantype: fc.constantFrom('B', 'S'),
  prctyp: fc.constantFrom('LMT', 'MKT', 'SL-LMT', 'SL-MKT', 'DS', '2L', '3L'),
  ret: fc.constantFrom('DAY', 'EOS', 'IOC'),
  ai_t: fc.constantFrom('LTP_A_O', 'LTP_B_O'),
  validity: fc.constant('GTT'),
  d: fc.oneof(fc.integer({ min: 1, max: 100000 }), fc.constant('1490.5')),
  al_id: fc.oneof(fc.integer({ min: 1, max: 99999999 }).map(String), fc.constant('1')),
};
const EXTRA_KEYS = [
  'uid',
  'actid',
  'jKey',
  'ordersource',
  'x',
  'dry_run',
  'DryRun',
  'idempotency_key',
  '__proto__',
  'constructor',
  'toString',
];
/** Each field mostly valid, sometimes weird or missing; sometimes extra fields. */
const bodyFor = (fields: string[]) =>
  fc
    .tuple(
      fc.record(
        Object.fromEntries(
          fields.map((f) => [f, fc.oneof({ weight: 6, arbitrary: valid[f]! }, { weight: 1, arbitrary: weird })]),
        ),
        {
          requiredKeys: [],
        },
      ),
      fc.oneof(
        { weight: 5, arbitrary: fc.constant({}) },
        { weight: 1, arbitrary: fc.dictionary(fc.constantFrom(...EXTRA_KEYS), weird, { maxKeys: 2 }) },
      ),
    )
    .map(([body, extra]) => ({ ...body, ...extra }) as Record<string, unknown>);

/** Query parameters: mostly none; else real ones, misspelt options and strangers, with odd values. */
const queryFor = fc.oneof(
  { weight: 3, arbitrary: fc.constant<Record<string, string> | undefined>(undefined) },
  {
    weight: 2,
    arbitrary: fc.dictionary(
      fc.constantFrom(
        'dryRun',
        'dryrun',
        'dry_run',
        'DryRun',
        'dry-run',
        'tsym',
        'exch',
        'foo',
        '__proto__',
        'q'.repeat(300),
      ),
      fc.oneof(
        fc.constantFrom('true', '1', 'false', '0', '', 'NSE', 'M&M-EQ'),
        loneSurrogate,
        fc.string({ maxLength: 8 }),
      ),
      { minKeys: 1, maxKeys: 2 },
    ),
  },
);
/** Headers: mostly none; else look-alikes of the ones we define (each must be refused, not ignored). */
const headersFor = fc.oneof(
  { weight: 6, arbitrary: fc.constant<Record<string, string>>({}) },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom('X-Idempotency-Key', 'Idempotency_Key', 'X-Dry-Run', 'DryRun')
      .map((name) => ({ [name]: 'k-1' })),
  },
);
/** Direct payload options: mostly none; else odd values of the real ones. */
const optionsFor = fc.oneof(
  { weight: 6, arbitrary: fc.constant<Record<string, unknown>>({}) },
  { weight: 1, arbitrary: fc.record({ dryRun: fc.oneof(fc.boolean(), weird) }, { requiredKeys: [] }) },
  { weight: 1, arbitrary: fc.record({ idempotencyKey: weird }) },
);

const ORDER_FIELDS = ['exch', 'tsym', 'qty', 'prc', 'prd', 'trantype', 'prctyp', 'ret', 'ai_t', 'validity', 'd'];
const fieldsOf = (op: AnyOperation): string[] =>
  op.name === 'PlaceGTTOrder'
    ? ORDER_FIELDS
    : op.name === 'ModifyGTTOrder'
      ? [...ORDER_FIELDS, 'al_id']
      : op.name === 'CancelGTTOrder'
        ? ['al_id']
        : [];

/**
 * The emulator's request log. A run can keep the control connection idle past the emulator's keep-alive timeout,
 * and fetch may reuse the socket just as the server closes it (ECONNRESET): the read is repeated once then.
 */
const controlRequests = async () => {
  try {
    return await control.requests();
  } catch {
    return control.requests();
  }
};

const accessLines = () => written.access;
const auditLines = () => written.audit;

/** The error body of the contract: a known code, a message, details of the one shape. */
const expectContractError = (error: unknown): string => {
  expect(error).toMatchObject({ code: expect.any(String), message: expect.any(String) });
  const { code, message, details } = error as { code: ErrorCode; message: string; details?: unknown };
  expect(Object.keys(ERROR_CATALOG)).toContain(code);
  expect(message.length).toBeGreaterThan(0);
  if (code === 'VALIDATION_FAILED' && details !== undefined) {
    expect(Array.isArray(details)).toBe(true);
    for (const problem of details as unknown[]) {
      expect(Object.keys(problem as object).sort()).toEqual(['field', 'message']);
      expect(problem).toEqual({ field: expect.any(String), message: expect.any(String) });
    }
  }
  return code;
};

describe.each(OPERATIONS.filter((op) => op.name !== 'Logout'))('fuzz $name', (operation) => {
  it(`${RUNS} generated requests end in a reply or our own error, each logged, and rejected ones never reach the broker`, async () => {
    await control.reset();
    const handler = handlers.get(operation.name)!;
    let brokerBound = 0;
    /** Broker-bound requests that failed in transport: they may or may not have reached the emulator. */
    let mayNotHaveArrived = 0;
    await fc.assert(
      fc.asyncProperty(
        bodyFor(fieldsOf(operation)),
        fc.boolean(),
        queryFor,
        headersFor,
        optionsFor,
        async (body, overHttp, query, headers, options) => {
          const accessBefore = accessLines();
          const auditBefore = auditLines();
          let code: string | undefined;
          let text: string;
          let dryRunResult = false;
          if (overHttp) {
            const alId = body.al_id;
            const event = httpApiEvent(operation, {
              body: toJsonText(body),
              headers,
              ...(query ? { query } : {}),
              ...(operation.pathParams && typeof alId === 'string' ? { pathParameters: { alId } } : {}),
            });
            const reply = (await handler(event, lambdaContext(operation.name))) as { statusCode: number; body: string };
            text = reply.body;
            const parsed = JSON.parse(reply.body) as { error?: unknown; dryRun?: boolean };
            if (reply.statusCode >= 400) {
              code = expectContractError(parsed.error);
              expect(reply.statusCode).toBe(ERROR_CATALOG[code as ErrorCode].status);
              expect(text.length).toBeLessThan(MAX_ERROR_REPLY);
            } else {
              expect(parsed.error).toBeUndefined();
              dryRunResult = parsed.dryRun === true;
            }
          } else {
            // What Lambda hands the function for that JSON text: 1e400 is Infinity, big integers are rounded.
            const payload = JSON.parse(toJsonText({ ...body, ...options })) as unknown;
            try {
              const result = await handler(payload, lambdaContext(operation.name));
              text = JSON.stringify(result);
              dryRunResult = (result as { dryRun?: boolean }).dryRun === true;
            } catch (error) {
              const e = error as Error;
              expect(ERROR_NAMES.has(e.name)).toBe(true);
              text = e.message;
              expect(text.length).toBeLessThan(MAX_ERROR_REPLY);
              code = expectContractError((JSON.parse(e.message) as { error: unknown }).error);
              expect(e.name).toBe(errorName(code as ErrorCode));
            }
          }
          expect(code).not.toBe('INTERNAL_ERROR');
          if (code && ERROR_CATALOG[code as ErrorCode].status >= 500) expect(ALLOWED_5XX).toContain(code);
          expect(text).not.toContain(stack.emulator.token);
          // Exactly one access line per request, and one audit record per order action, whatever it carried.
          expect(accessLines() - accessBefore).toBe(1);
          if (operation.kind === 'order') expect(auditLines() - auditBefore).toBe(1);
          if ((code === undefined && !dryRunResult) || (code !== undefined && !REJECTIONS.has(code))) brokerBound++;
          if (code === 'BROKER_UNAVAILABLE' || code === 'BROKER_TIMEOUT') mayNotHaveArrived++;
        },
      ),
      { numRuns: RUNS },
    );
    // Exactly the inputs that passed validation and guardrails (and were no dry run) reached the broker, once each
    // (less any whose connection failed before it arrived: a stale keep-alive socket after a long run).
    const requests = (await controlRequests()).filter((r) => r.operation === operation.broker);
    expect(requests.length).toBeLessThanOrEqual(brokerBound);
    expect(requests.length).toBeGreaterThanOrEqual(brokerBound - mayNotHaveArrived);
    for (const r of requests) expect(r.bodyContainedToken).toBe(false);
  });
});

describe('leak check', () => {
  it('no log line written during the fuzz runs contains the token, and none is huge', () => {
    expect(logLines.length).toBeGreaterThan(0);
    for (const line of logLines) {
      expect(line).not.toContain(stack.emulator.token);
      expect(line.length).toBeLessThan(16_000);
    }
  });
});
