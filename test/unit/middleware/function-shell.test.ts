import { describe, expect, it } from 'vitest';

import { BrokerRejectedError } from '../../../functions/base/contract/errors.js';
import { shellHandler } from '../../../functions/base/middleware/function-shell.js';
import { lambdaContext } from '../../../local/lambda-context.js';
import { captureLogger } from '../../support/logs.js';

describe('functionShell', () => {
  it("puts the invocation's Lambda context on every log line", async () => {
    const { logger, lines } = captureLogger();
    const handler = shellHandler({ logger, trigger: 'schedule' }, async () => {
      logger.info('inside');
      return 'ok';
    });
    expect(await handler(undefined, lambdaContext('GttWatcher'))).toBe('ok');
    expect(JSON.parse(lines[0]!)).toMatchObject({ message: 'inside', function_name: 'GttWatcher' });
  });

  it('with logFailures, one line per failure naming its code; the error leaves in the contract (named)', async () => {
    const { logger, lines } = captureLogger();
    const failure = new BrokerRejectedError('no');
    const handler = shellHandler({ logger, logFailures: true, trigger: 'schedule' }, async () => {
      throw failure;
    });
    const thrown = await handler().catch((error: unknown) => error as Error);
    expect(thrown.name).toBe('BrokerRejected');
    expect(JSON.parse(thrown.message)).toMatchObject({ error: { code: 'BROKER_REJECTED', message: 'no' } });
    expect(JSON.parse(lines.at(-1)!)).toMatchObject({
      message: 'function failed',
      failure: { code: 'BROKER_REJECTED' },
    });
  });
});
