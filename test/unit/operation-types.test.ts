/**
 * What the operation table infers, checked by the type checker (`npm test` runs tsc over the tests): each entry's
 * input, reply and result types come from its schemas, `defineOperation`'s defaults keep the reply as the result,
 * and a `toJData` or `toResult` of the wrong shape does not compile. The runtime assertions beside them keep vitest
 * honest about the same entries.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import * as z from 'zod';

import { defineOperation, type InputOf, type ReplyOf, type ResultOf } from '../../functions/base/contract/operation.js';
import type { cancelOrderInput, placeOrderInput } from '../../functions/base/schemas/input.js';
import type { cancelReply, clientDetailsReply, placeReply } from '../../functions/base/schemas/reply.js';
import type { clientDetails, getPendingGttOrders, placeGttOrder } from '../../functions/orders/operations.js';
import { cancelGttOrder } from '../../functions/orders/operations.js';

describe('the table infers each entry from its schemas', () => {
  it('InputOf is what the input schema outputs', () => {
    expectTypeOf<InputOf<typeof placeGttOrder>>().toEqualTypeOf<z.output<typeof placeOrderInput>>();
    expectTypeOf<InputOf<typeof cancelGttOrder>>().toEqualTypeOf<z.output<typeof cancelOrderInput>>();
    expectTypeOf<InputOf<typeof cancelGttOrder>>().toHaveProperty('al_id').toEqualTypeOf<string>();
    expect(cancelGttOrder.input.parse({ al_id: '123' })).toEqual({ al_id: '123' });
  });

  it('ReplyOf is what the reply schema decodes; ResultOf is toResult’s, or the reply by default', () => {
    expectTypeOf<ReplyOf<typeof placeGttOrder>>().toEqualTypeOf<z.output<typeof placeReply>>();
    // No toResult: the default answers the decoded reply.
    expectTypeOf<ResultOf<typeof cancelGttOrder>>().toEqualTypeOf<z.output<typeof cancelReply>>();
    expectTypeOf<ResultOf<typeof clientDetails>>().toEqualTypeOf<z.output<typeof clientDetailsReply>>();
    // A toResult of its own: the paged list, not the broker's array.
    expectTypeOf<ResultOf<typeof getPendingGttOrders>>().toHaveProperty('orders').toBeArray();
    const reply = { stat: 'OI deleted', al_id: '1', request_time: '10:00:00 24-11-2026' };
    expect(cancelGttOrder.toResult(cancelGttOrder.reply.parse(reply) as never, { al_id: '1' } as never)).toEqual(
      cancelGttOrder.reply.parse(reply),
    );
  });

  it('a new entry is checked as it is written', () => {
    const entry = defineOperation({
      name: 'Example',
      broker: 'Example',
      id: 'example',
      summary: 'an example',
      route: { method: 'GET', path: '/example' },
      successStatus: 200,
      kind: 'read',
      retrySafe: true,
      example: { n: 1 },
      input: z.object({ n: z.number() }),
      reply: z.object({ stat: z.literal('Ok'), total: z.number() }),
      toJData: (input, session) => ({ uid: session.uid, n: String(input.n) }),
    });
    expectTypeOf<InputOf<typeof entry>>().toEqualTypeOf<{ n: number }>();
    expectTypeOf<ResultOf<typeof entry>>().toEqualTypeOf<{ stat: 'Ok'; total: number }>();
    expect(entry.toJData({ n: 2 }, { uid: 'U1', actid: 'U1', accessToken: 't' } as never)).toEqual({
      uid: 'U1',
      n: '2',
    });

    defineOperation({
      name: 'Wrong',
      broker: 'Wrong',
      id: 'wrong',
      summary: 'wrong',
      route: { method: 'GET', path: '/wrong' },
      successStatus: 200,
      kind: 'read',
      retrySafe: true,
      example: { n: 1 },
      input: z.object({ n: z.number() }),
      reply: z.object({ stat: z.literal('Ok') }),
      // @ts-expect-error jData values are strings (or lists and records of them), never numbers
      toJData: (input, session) => ({ uid: session.uid, n: input.n }),
    });
  });
});
