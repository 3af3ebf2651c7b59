/**
 * The operation table is the only source of each operation's facts. Its entries are complete and consistent: names
 * and ids unique, routes distinct, an example every generic test can send (valid for the entry's input schema),
 * and the defaults of `defineOperation` (jData `{uid}`, the reply as the result) applied where an entry leaves them.
 */
import { describe, expect, it } from 'vitest';

import { defineOperation } from '../../functions/contract/operation.js';
import { validateInput } from '../../functions/contract/validate-input.js';
import { OPERATIONS } from '../../functions/manifest/index.js';
import { noInput } from '../../functions/schemas/input.js';
import { logoutReply } from '../../functions/schemas/reply.js';

const session = { accessToken: 'not-used-here-1', uid: 'U1', actid: 'A1' };

describe('the operation table', () => {
  it('names, ids and routes are unique', () => {
    for (const key of ['name', 'id'] as const)
      expect(new Set(OPERATIONS.map((op) => op[key])).size).toBe(OPERATIONS.length);
    expect(new Set(OPERATIONS.map((op) => `${op.route.method} ${op.route.path}`)).size).toBe(OPERATIONS.length);
  });

  it.each(OPERATIONS.map((op) => [op.name, op] as const))(
    '%s: its example is a valid input, and builds jData',
    (_name, op) => {
      const input = validateInput(op.input, op.example);
      const jData = op.toJData(input, session);
      expect(jData).toMatchObject(op.name === 'GetTriggeredGTTOrders' ? { actid: 'A1' } : { uid: 'U1' });
      for (const param of Object.values(op.pathParams ?? {})) expect(op.example).toHaveProperty(param);
    },
  );

  it('an entry without toJData, toResult and result sends {uid} and answers the reply as its schema decoded it', () => {
    const bare = defineOperation({
      name: 'Bare',
      broker: 'Bare',
      id: 'bare',
      summary: 'a test entry',
      route: { method: 'GET', path: '/bare' },
      successStatus: 200,
      kind: 'read',
      retrySafe: true,
      input: noInput,
      example: {},
      reply: logoutReply,
    });
    expect(bare.toJData({}, session)).toEqual({ uid: 'U1' });
    const reply = { stat: 'Ok' as const, request_time: '10:00:00 01-01-2026' };
    expect(bare.toResult(reply, {})).toBe(reply);
    expect(bare.result).toBe(logoutReply);
  });
});
