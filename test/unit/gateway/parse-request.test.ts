import { describe, expect, it } from 'vitest';

import { parseRequest } from '../../../functions/gateway/parse-request.js';
import { cancelGttOrder } from '../../../functions/operations.js';
import { httpApiEvent } from '../../support/events.js';
import { run } from './support.js';

describe('parseRequest', () => {
  it('reads the request and hands the handler the validated input', async () => {
    const ok = await run(
      [parseRequest(cancelGttOrder)],
      (ctx) => ctx.gateway.input,
      {
        ...httpApiEvent(cancelGttOrder, { pathParameters: { alId: '26112400000001' } }),
      },
      { source: 'http' },
    );
    expect(ok.result).toEqual({ al_id: '26112400000001' });
  });

  it('bad input is VALIDATION_FAILED naming the field, and the handler never runs; the request is kept for the audit', async () => {
    let ran = false;
    const bad = await run([parseRequest(cancelGttOrder)], () => (ran = true), { al_id: 'not an id!' });
    expect(ran).toBe(false);
    expect(bad.error).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(String((bad.error as Error).message)).toContain('al_id');
    expect(bad.context.gateway.request?.payload).toEqual({ al_id: 'not an id!' });
  });
});
