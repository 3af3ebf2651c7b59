import { describe, expect, it } from 'vitest';

import { BrokerRejectedError } from '../../../functions/base/contract/errors.js';
import { auditLog } from '../../../functions/orders/gateway/audit-log.js';
import { getPendingGttOrders, placeGttOrder } from '../../../functions/orders/operations.js';
import { captureLogger } from '../../support/logs.js';
import { SAMPLE_ORDER } from '../../support/sample-order.js';
import { run } from './support.js';

const records = (lines: string[]) =>
  lines.map((l) => (JSON.parse(l) as { audit?: Record<string, unknown> }).audit).filter(Boolean);

describe('auditLog', () => {
  it('only order operations are audited', () => {
    expect(auditLog(getPendingGttOrders, captureLogger().logger)).toBeUndefined();
  });

  it('one record per order action: key, order fields, outcome and al_id; a replay says replayed', async () => {
    const { logger, lines } = captureLogger();
    const audit = auditLog(placeGttOrder, logger)!;
    const state = { request: { options: { idempotencyKey: 'k1' } } as never, order: { input: { ...SAMPLE_ORDER } } };
    await run([audit], () => ({ stat: 'OI created', al_id: '26112400000001' }), {}, state);
    await run(
      [audit],
      () => ({ stat: 'OI created', al_id: '26112400000001' }),
      {},
      { ...state, facts: { replayed: true } },
    );
    const [first, replay] = records(lines);
    expect(first).toMatchObject({
      action: 'PlaceGTTOrder',
      idempotencyKey: 'k1',
      outcome: 'succeeded',
      al_id: '26112400000001',
      order: { tsym: 'M&M-EQ', qty: 1 },
    });
    expect(replay).toMatchObject({ outcome: 'replayed' });
  });

  it('a refused action is recorded with its code, and the record never carries the token', async () => {
    const { logger, lines } = captureLogger();
    const token = 'T'.repeat(48);
    await run(
      [auditLog(placeGttOrder, logger)!],
      () => {
        throw new BrokerRejectedError(`refused, jKey=${token}`, { outcome: 'not_executed' });
      },
      {},
      { request: { options: {} } as never, order: { input: { ...SAMPLE_ORDER } } },
    );
    expect(records(lines)[0]).toMatchObject({ outcome: 'rejected' });
    expect(lines.join('\n')).not.toContain(token);
  });
});
