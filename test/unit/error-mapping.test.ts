import { describe, expect, it } from 'vitest';

import { annotateOutcome } from '../../functions/base/broker/call-broker.js';
import { decodeBrokerReply } from '../../functions/base/broker/reply.js';
import {
  ERROR_CATALOG,
  type ErrorCode,
  errorFromBody,
  errorName,
  fromDirectInvocation,
  GatewayError,
  toGatewayError,
} from '../../functions/base/contract/errors.js';
import type { AnyOperation } from '../../functions/base/contract/operation.js';
import { directInvocationError, httpErrorResponse } from '../../functions/base/middleware/error-contract.js';
import {
  cancelGttOrder,
  getPendingGttOrders,
  logout,
  modifyGttOrder,
  placeGttOrder,
} from '../../functions/orders/operations.js';

const json = (body: unknown, status = 200) => ({ status, contentType: 'application/json', text: JSON.stringify(body) });

const failureOf = (
  operation: AnyOperation,
  reply: { status: number; contentType: string; text: string },
): GatewayError => {
  try {
    decodeBrokerReply(operation, reply, {});
  } catch (error) {
    expect(error).toBeInstanceOf(GatewayError);
    return error as GatewayError;
  }
  throw new Error('expected a failure');
};

describe('broker reply -> error code', () => {
  it.each<[string, { status: number; contentType: string; text: string }, ErrorCode, number]>([
    [
      'Session Expired (invalid key)',
      json({ stat: 'Not_Ok', emsg: 'Session Expired :  Invalid Session Key' }),
      'SESSION_EXPIRED',
      503,
    ],
    [
      'Session Expired (invalid user)',
      json({ stat: 'Not_Ok', emsg: 'Session Expired :  Invalid User Id' }),
      'SESSION_EXPIRED',
      503,
    ],
    [
      'Server Timeout',
      json({ stat: 'Not_Ok', emsg: 'Server Timeout :  Please try after some time' }),
      'BROKER_TIMEOUT',
      504,
    ],
    [
      'rate limit',
      json({ stat: 'Not_Ok', emsg: 'Order Recieved 11 in a current second exceeds Limit 10' }),
      'RATE_LIMITED',
      429,
    ],
    // As one Noren broker words it: an Invalid Input prefix and a user suffix; the same code as our own governor's.
    [
      'rate limit (Invalid Input)',
      json({ stat: 'Not_Ok', emsg: 'Invalid Input : Order Recieved 11 in a current second exceeds Limit 10 for user' }),
      'RATE_LIMITED',
      429,
    ],
    [
      'ALGO_CHK market order',
      json({ stat: 'Not_Ok', emsg: 'ALGO_CHK: MKT Order type not allowed for API order' }),
      'BROKER_REJECTED',
      422,
    ],
    ['Invalid Oi as stat', json({ stat: 'Invalid Oi', al_id: '1', request_time: 'x' }), 'ORDER_NOT_FOUND', 404],
    ['Invalid Oi as emsg', json({ stat: 'Not_Ok', emsg: 'Invalid Oi' }), 'ORDER_NOT_FOUND', 404],
    ['other Not_Ok', json({ stat: 'Not_Ok', emsg: 'Invalid Input : qty is Missing' }), 'BROKER_REJECTED', 422],
    ['Not_Ok with HTTP 400', json({ stat: 'Not_Ok', emsg: 'Invalid Input : bad exch' }, 400), 'BROKER_REJECTED', 422],
    ['HTTP 503 html', { status: 503, contentType: 'text/html', text: '<html>down</html>' }, 'BROKER_UNAVAILABLE', 502],
    ['HTTP 500 json', json({ stat: 'Ok' }, 500), 'BROKER_UNAVAILABLE', 502],
    [
      'non-JSON 200',
      { status: 200, contentType: 'text/html', text: '<html>gateway error</html>' },
      'BROKER_BAD_REPLY',
      502,
    ],
    ['off-schema', json({ stat: 'OI created' }), 'BROKER_BAD_REPLY', 502],
    ['array for an object reply', json([]), 'BROKER_BAD_REPLY', 502],
  ])('%s', (_label, reply, code, status) => {
    const error = failureOf(placeGttOrder, reply);
    expect(error.code).toBe(code);
    expect(error.status).toBe(status);
    expect(error.name).toBe(errorName(code));
  });

  it("the broker's rate limit on an order: not executed (a Not_Ok means the broker did not act), Retry-After 1", () => {
    const error = annotateOutcome(
      cancelGttOrder,
      failureOf(
        cancelGttOrder,
        json({ stat: 'Not_Ok', emsg: 'Order Recieved 11 in a current second exceeds Limit 10' }),
      ),
    );
    expect(error).toMatchObject({
      code: 'RATE_LIMITED',
      outcome: 'not_executed',
      brokerMessage: 'Order Recieved 11 in a current second exceeds Limit 10',
    });
    expect(httpErrorResponse(error).headers).toMatchObject({ 'retry-after': '1' });
    expect(directInvocationError(error).name).toBe('RateLimited');
  });

  it('keeps the broker text in brokerMessage', () => {
    const error = failureOf(placeGttOrder, json({ stat: 'Not_Ok', emsg: 'Invalid Input : qty is Missing' }));
    expect(error.brokerMessage).toBe('Invalid Input : qty is Missing');
    expect(error.toBody()).toMatchObject({ code: 'BROKER_REJECTED', brokerMessage: 'Invalid Input : qty is Missing' });
    // Only there: the message is the gateway's own sentence, never the broker's text inside it.
    expect(error.message).not.toContain('qty is Missing');
  });

  it('turns the empty-list answer into an empty array, and only for the list operation', () => {
    expect(decodeBrokerReply(getPendingGttOrders, json({ stat: 'Not_Ok', emsg: 'no data' }), {})).toEqual({
      orders: [],
    });
    expect(decodeBrokerReply(getPendingGttOrders, json([]), {})).toEqual({ orders: [] });
    expect(failureOf(placeGttOrder, json({ stat: 'Not_Ok', emsg: 'no data' })).code).toBe('BROKER_REJECTED');
  });

  it('hands out qty as a number', () => {
    const record = {
      stat: 'Ok',
      al_id: '7',
      ai_t: 'LTP_B_O',
      tsym: 'M&M-EQ',
      exch: 'NSE',
      trantype: 'B',
      prctyp: 'LMT',
      qty: '5',
      prc: '10',
      prd: 'C',
      d: '9',
    };
    const result = decodeBrokerReply(getPendingGttOrders, json([record]), {}) as { orders: { qty: unknown }[] };
    expect(result.orders[0]?.qty).toBe(5);
  });

  it('accepts the documented success replies', () => {
    expect(
      decodeBrokerReply(
        placeGttOrder,
        json({ request_time: '10:00:00 22-11-2026', stat: 'OI created', al_id: '42' }),
        {},
      ),
    ).toEqual({
      request_time: '10:00:00 22-11-2026',
      stat: 'OI created',
      al_id: '42',
    });
    expect(
      decodeBrokerReply(modifyGttOrder, json({ request_time: 't', stat: 'OI replaced', al_id: '42' }), {}),
    ).toMatchObject({ al_id: '42' });
    expect(
      decodeBrokerReply(cancelGttOrder, json({ request_time: 't', stat: 'OI deleted', al_id: '42' }), {}),
    ).toMatchObject({ al_id: '42' });
    expect(decodeBrokerReply(logout, json({ stat: 'Ok', request_time: 't' }), {})).toEqual({
      stat: 'Ok',
      request_time: 't',
    });
  });
});

describe('error contract', () => {
  it('has one status per code and PascalCase names', () => {
    expect(Object.fromEntries(Object.entries(ERROR_CATALOG).map(([code, row]) => [code, row.status]))).toEqual({
      VALIDATION_FAILED: 400,
      ORDER_NOT_FOUND: 404,
      BROKER_REJECTED: 422,
      SESSION_EXPIRED: 503,
      RATE_LIMITED: 429,
      BROKER_TIMEOUT: 504,
      BROKER_UNAVAILABLE: 502,
      BROKER_BAD_REPLY: 502,
      GUARDRAIL_REJECTED: 422,
      IDEMPOTENCY_KEY_REUSED: 422,
      IDEMPOTENCY_IN_PROGRESS: 409,
      CONFIGURATION_ERROR: 500,
      INTERNAL_ERROR: 500,
      GATEWAY_BUSY: 503,
      PAYLOAD_TOO_LARGE: 413,
      UNSUPPORTED_MEDIA_TYPE: 415,
      REQUEST_FORBIDDEN: 403,
      SESSION_ACCOUNT_MISMATCH: 403,
      TRADING_HALTED: 423,
      OCO_LEGS_MISMATCH: 422,
      PLAN_NOT_FOUND: 404,
      PLAN_BUSY: 409,
      ORDER_CHANGED: 412,
      ORDER_BUSY: 409,
      STRATEGY_NOT_FOUND: 404,
      ASSISTANT_NOT_FOUND: 404,
      SIGNAL_NOT_FOUND: 404,
      SIGNAL_TOKEN_INVALID: 401,
    });
    expect(errorName('SESSION_EXPIRED')).toBe('SessionExpired');
    expect(errorName('RATE_LIMITED')).toBe('RateLimited');
    expect(errorName('PAYLOAD_TOO_LARGE')).toBe('PayloadTooLarge');
  });

  it('rebuilds every code of the catalog from its body, with its status and Step Functions name', () => {
    for (const code of Object.keys(ERROR_CATALOG) as ErrorCode[]) {
      const error = errorFromBody({ code, message: 'm' });
      expect(error.code).toBe(code);
      expect(error.status).toBe(ERROR_CATALOG[code].status);
      expect(error.name).toBe(errorName(code));
    }
  });

  it('renders HTTP errors as {error:{code,message,...}} with the status', () => {
    const error = failureOf(
      placeGttOrder,
      json({ stat: 'Not_Ok', emsg: 'Order Recieved 11 in a current second exceeds Limit 10' }),
    );
    const response = httpErrorResponse(error);
    expect(response.statusCode).toBe(429);
    expect(response.headers).toMatchObject({ 'retry-after': '1' });
    expect(JSON.parse(String(response.body))).toEqual({
      error: {
        code: 'RATE_LIMITED',
        message: error.message,
        brokerMessage: 'Order Recieved 11 in a current second exceeds Limit 10',
      },
    });
  });

  it('throws named errors for direct invocations with the JSON body as message', () => {
    const error = failureOf(placeGttOrder, json({ stat: 'Not_Ok', emsg: 'Session Expired :  Invalid Session Key' }));
    const thrown = directInvocationError(error);
    expect(thrown.name).toBe('SessionExpired');
    expect(JSON.parse(thrown.message)).toMatchObject({ error: { code: 'SESSION_EXPIRED' } });
  });

  it("reads a direct invocation's error back as the error it was; anything else is INTERNAL_ERROR", () => {
    const error = failureOf(placeGttOrder, json({ stat: 'Not_Ok', emsg: 'Session Expired :  Invalid Session Key' }));
    const back = fromDirectInvocation(directInvocationError(error));
    expect(back).toBeInstanceOf(GatewayError);
    expect(back.toBody()).toEqual(error.toBody());
    expect(fromDirectInvocation(error)).toBe(error);
    const unknownCode = new Error(JSON.stringify({ error: { code: 'NO_SUCH_CODE', message: 'x' } }));
    expect(fromDirectInvocation(unknownCode).code).toBe('INTERNAL_ERROR');
    expect(fromDirectInvocation(new Error('not json')).code).toBe('INTERNAL_ERROR');
    expect(fromDirectInvocation('thrown string').code).toBe('INTERNAL_ERROR');
  });

  it('hides unexpected errors behind INTERNAL_ERROR', () => {
    const error = toGatewayError(new TypeError('secret detail'));
    expect(error.code).toBe('INTERNAL_ERROR');
    expect(error.message).not.toContain('secret detail');
  });

  it('marks order errors after a possible send as outcome unknown, and broker refusals as not executed', () => {
    const timeout = annotateOutcome(
      placeGttOrder,
      failureOf(placeGttOrder, json({ stat: 'Not_Ok', emsg: 'Server Timeout :  x' })),
    );
    expect(timeout.outcome).toBe('unknown');
    expect(timeout.message).toMatch(/may or may not have been placed: check the pending orders/);
    const bad = annotateOutcome(
      cancelGttOrder,
      failureOf(cancelGttOrder, { status: 200, contentType: 'text/html', text: '<x>' }),
    );
    expect(bad.outcome).toBe('unknown');
    expect(bad.message).toMatch(/cancelled/);
    const rejected = annotateOutcome(placeGttOrder, failureOf(placeGttOrder, json({ stat: 'Not_Ok', emsg: 'nope' })));
    expect(rejected.outcome).toBe('not_executed');
    const read = annotateOutcome(
      getPendingGttOrders,
      failureOf(getPendingGttOrders, json({ stat: 'Not_Ok', emsg: 'Server Timeout : x' })),
    );
    expect(read.outcome).toBeUndefined();
  });

  it('a session operation that may have acted says so: logout with a lost reply is outcome unknown', () => {
    const lost = annotateOutcome(logout, failureOf(logout, { status: 200, contentType: 'text/html', text: '<x>' }));
    expect(lost.outcome).toBe('unknown');
    expect(lost.message).toMatch(/may or may not have/);
    const timeout = annotateOutcome(logout, failureOf(logout, json({ stat: 'Not_Ok', emsg: 'Server Timeout :  x' })));
    expect(timeout.outcome).toBe('unknown');
    const refused = annotateOutcome(logout, failureOf(logout, json({ stat: 'Not_Ok', emsg: 'nope' })));
    expect(refused.outcome).toBe('not_executed');
  });
});
