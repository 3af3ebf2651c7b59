/**
 * Property-based tests: thousands of generated bodies per operation through the real handler (both entry shapes),
 * against the emulator. Every run must end in a valid reply or one of our own error codes (never an unhandled or
 * internal error), rejected input must never reach the broker, and the token must never appear in a reply, an
 * error or a log line.
 */
import { Logger } from '@aws-lambda-powertools/logger';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalStack, type LocalStack } from '../../local/run-local.js';
import { createGatewayHandler, type GatewayHandler } from '../../functions/gateway.js';
import { ERROR_CATALOG, errorName } from '../../functions/contract/errors.js';
import { OPERATIONS } from '../../functions/operations.js';
import type { AnyOperation } from '../../functions/contract/operation.js';
import { emulatorControl, type EmulatorControl } from '../support/emulator-control.js';
import { httpApiEvent } from '../support/events.js';
import { lambdaContext } from '../../local/lambda-context.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 1000);
const ERROR_NAMES = new Set(Object.keys(ERROR_CATALOG).map((code) => errorName(code as keyof typeof ERROR_CATALOG)));
const REJECTIONS = new Set(['VALIDATION_FAILED', 'GUARDRAIL_REJECTED']);

let stack: LocalStack;
let control: EmulatorControl;
const logLines: string[] = [];
let handlers: Map<string, GatewayHandler>;

beforeAll(async () => {
  const logger = new Logger({ serviceName: 'fuzz', logLevel: 'INFO' });
  const write = (line: string) => logLines.push(line);
  (logger as unknown as { console: Record<string, unknown> }).console = { info: write, warn: write, error: write, debug: write, log: write };
  stack = await startLocalStack({ settings: { IDEMPOTENCY_KEY_REQUIRED: false, GUARDRAIL_MAX_QTY: 100000 }, gateway: { logger } });
  control = emulatorControl(stack.emulator.url);
  handlers = new Map(OPERATIONS.map((op) => [op.name, createGatewayHandler(op, { config: { ...stack.config, IDEMPOTENCY_TABLE_NAME: undefined }, logger })]));
});

afterAll(async () => {
  await stack?.close();
});

const symbols = ['M&M-EQ', 'L&TFH-EQ', 'NIFTY 25DEC 24000 CE', '%', '+', '=', 'RELIANCE-EQ', 'ÄÖÜ', '🙂', 'a\u0000b', '../../etc'];
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
);
const valid: Record<string, fc.Arbitrary<unknown>> = {
  exch: fc.constantFrom('NSE', 'NFO', 'BSE', 'MCX'),
  tsym: fc.constantFrom(...symbols),
  qty: fc.oneof(fc.integer({ min: 1, max: 1000 }), fc.integer({ min: 1, max: 1000 }).map(String)),
  prc: fc.oneof(fc.constant('0'), fc.integer({ min: 1, max: 100000 }).map((n) => (n / 100).toFixed(2)), fc.integer({ min: 1, max: 5000 })),
  prd: fc.constantFrom('C', 'M', 'H'),
  trantype: fc.constantFrom('B', 'S'),
  prctyp: fc.constantFrom('LMT', 'MKT', 'SL-LMT', 'SL-MKT', 'DS', '2L', '3L'),
  ret: fc.constantFrom('DAY', 'EOS', 'IOC'),
  ai_t: fc.constantFrom('LTP_A_O', 'LTP_B_O'),
  validity: fc.constant('GTT'),
  d: fc.oneof(fc.integer({ min: 1, max: 100000 }), fc.constant('1490.5')),
  al_id: fc.oneof(fc.integer({ min: 1, max: 99999999 }).map(String), fc.constant('1')),
};
/** Each field mostly valid, sometimes weird or missing; sometimes extra fields. */
const bodyFor = (fields: string[]) =>
  fc
    .tuple(
      fc.record(Object.fromEntries(fields.map((f) => [f, fc.oneof({ weight: 6, arbitrary: valid[f]! }, { weight: 1, arbitrary: weird })])), {
        requiredKeys: [],
      }),
      fc.oneof({ weight: 5, arbitrary: fc.constant({}) }, { weight: 1, arbitrary: fc.dictionary(fc.constantFrom('uid', 'actid', 'jKey', 'ordersource', 'x'), weird, { maxKeys: 2 }) }),
    )
    .map(([body, extra]) => ({ ...body, ...extra }));

const ORDER_FIELDS = ['exch', 'tsym', 'qty', 'prc', 'prd', 'trantype', 'prctyp', 'ret', 'ai_t', 'validity', 'd'];
const fieldsOf = (op: AnyOperation): string[] =>
  op.name === 'PlaceGTTOrder' ? ORDER_FIELDS : op.name === 'ModifyGTTOrder' ? [...ORDER_FIELDS, 'al_id'] : op.name === 'CancelGTTOrder' ? ['al_id'] : [];

describe.each(OPERATIONS.filter((op) => op.name !== 'Logout'))('fuzz $name', (operation) => {
  it(`${RUNS} generated bodies end in a reply or our own error, and rejected ones never reach the broker`, async () => {
    await control.reset();
    const handler = handlers.get(operation.name)!;
    let brokerBound = 0;
    await fc.assert(
      fc.asyncProperty(bodyFor(fieldsOf(operation)), fc.boolean(), async (body, overHttp) => {
        let code: string | undefined;
        let text: string;
        if (overHttp) {
          const event = httpApiEvent(operation, {
            body,
            ...(operation.pathParams && typeof body.al_id === 'string' ? { pathParameters: { alId: body.al_id } } : {}),
          });
          const reply = (await handler(event, lambdaContext(operation.name))) as { statusCode: number; body: string };
          text = reply.body;
          const parsed = JSON.parse(reply.body) as { error?: { code: string } };
          code = parsed.error?.code;
          if (code) expect(reply.statusCode).toBe(ERROR_CATALOG[code as keyof typeof ERROR_CATALOG].status);
        } else {
          try {
            text = JSON.stringify(await handler(body, lambdaContext(operation.name)));
          } catch (error) {
            const e = error as Error;
            expect(ERROR_NAMES.has(e.name)).toBe(true);
            text = e.message;
            code = (JSON.parse(e.message) as { error: { code: string } }).error.code;
          }
        }
        expect(code).not.toBe('INTERNAL_ERROR');
        expect(text).not.toContain(stack.emulator.token);
        if (code === undefined || !REJECTIONS.has(code)) brokerBound++;
      }),
      { numRuns: RUNS },
    );
    // Exactly the inputs that passed validation and guardrails reached the broker, once each.
    const requests = (await control.requests()).filter((r) => r.operation === operation.name);
    expect(requests.length).toBe(brokerBound);
    for (const r of requests) expect(r.bodyContainedToken).toBe(false);
  }, 120_000);
});

describe('leak check', () => {
  it('no log line written during the fuzz runs contains the token', () => {
    expect(logLines.length).toBeGreaterThan(0);
    for (const line of logLines) expect(line).not.toContain(stack.emulator.token);
  });
});
