import { describe, expect, it } from 'vitest';

import { BrokerRejectedError } from '../../../functions/base/contract/errors.js';
import { accessLog } from '../../../functions/orders/gateway/access-log.js';
import { placeGttOrder } from '../../../functions/orders/operations.js';
import { captureLogger } from '../../support/logs.js';
import { run } from './support.js';

describe('accessLog', () => {
  it('one info line per success with operation, source, latency and the broker stat; never the body', async () => {
    const { logger, lines } = captureLogger();
    await run(
      [accessLog(placeGttOrder, logger)],
      (ctx) => {
        ctx.gateway.facts.brokerStat = 'OI created';
        return { al_id: '1', secretField: 'x' };
      },
      { tsym: 'M&M-EQ' },
    );
    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0]!) as Record<string, unknown>;
    expect(line).toMatchObject({
      level: 'INFO',
      message: 'operation succeeded',
      operation: 'PlaceGTTOrder',
      source: 'direct',
      brokerStat: 'OI created',
    });
    expect(line.latencyMs).toEqual(expect.any(Number));
    expect(lines[0]).not.toContain('M&M-EQ');
    expect(lines[0]).not.toContain('secretField');
  });

  it('one line per failure: warn for a 4xx, error for a 5xx, with its code, status and outcome', async () => {
    const { logger, lines } = captureLogger();
    await run([accessLog(placeGttOrder, logger)], () => {
      throw new BrokerRejectedError('no margin', { outcome: 'not_executed' });
    });
    await run([accessLog(placeGttOrder, logger)], () => {
      throw new Error('boom');
    });
    const [rejected, crashed] = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(rejected).toMatchObject({
      level: 'WARN',
      message: 'operation failed',
      code: 'BROKER_REJECTED',
      outcome: 'not_executed',
    });
    expect(crashed).toMatchObject({ level: 'ERROR', code: 'INTERNAL_ERROR', status: 500 });
    expect(crashed!.cause).toContain('boom');
  });
});
