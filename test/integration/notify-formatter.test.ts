/**
 * The deployed NotifyFormatter (functions/events/notify-formatter.ts) with the real EventBridge client against the
 * local PutEvents endpoint: it puts the chat body of the event it was given on the bus as a Notification of its own
 * source (what the stack's second rule hands to the API destination as `$.detail`), the same body the local
 * forwarder POSTs, and fails with the shell's named error when the bus refuses it so Lambda retries.
 */
import { afterEach, describe, expect, it } from 'vitest';

import { NOTIFICATION_SOURCE, notificationBody } from '../../functions/events/notification.js';
import { createNotifyFormatter } from '../../functions/events/notify-formatter.js';
import { type LocalEventBridge, startLocalEventBridge } from '../../local/eventbridge.js';
import { SAMPLE_SINGLE_DETAIL } from '../support/sample-events.js';

let bus: LocalEventBridge | undefined;
afterEach(async () => {
  await bus?.close();
  bus = undefined;
});

/** The sample single GTT as the watcher saw it fire: no product, no tag. */
const { product: _product, tag: _tag, ...untagged } = SAMPLE_SINGLE_DETAIL;
const triggered = {
  version: '0',
  id: 'e1',
  'detail-type': 'GTT Triggered',
  source: 'gtt-gateway',
  detail: { ...untagged, origin: 'watcher', status: 'TRIGGERED' },
};

describe('NotifyFormatter', () => {
  it('puts the Telegram body of the event on the bus as a Notification of its own source', async () => {
    bus = await startLocalEventBridge({ busName: 'gtt' });
    const handler = createNotifyFormatter({
      endpoint: bus.url,
      env: { EVENT_BUS_NAME: 'gtt', NOTIFY_FORMAT: 'telegram', NOTIFY_TELEGRAM_CHAT_ID: '-1001234' },
    });
    await handler(triggered);
    expect(bus.events).toEqual([
      expect.objectContaining({
        source: NOTIFICATION_SOURCE,
        'detail-type': 'Notification',
        detail: notificationBody('telegram', triggered, '-1001234'),
      }),
    ]);
    expect(bus.events[0]!.detail).toEqual({
      chat_id: '-1001234',
      text: expect.stringMatching(/^GTT Triggered: Buy 1 NSE:M&M-EQ @ 1500 LMT fired at 1490\n/),
    });
  });

  it('throws when the bus refuses the message (Lambda retries), and refuses to start without a chat format', async () => {
    bus = await startLocalEventBridge({ busName: 'gtt' });
    const handler = createNotifyFormatter({
      endpoint: bus.url,
      env: { EVENT_BUS_NAME: 'gtt', NOTIFY_FORMAT: 'slack' },
    });
    bus.refuseNext(1);
    // The shell's named error of an asynchronous invocation: Lambda retries it, the operator reads the cause.
    const failure = await handler(triggered).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(Error);
    expect((failure as Error).name).toBe('InternalError');
    expect(JSON.parse((failure as Error).message)).toEqual({
      error: expect.objectContaining({
        code: 'INTERNAL_ERROR',
        message: expect.stringMatching(/the bus refused the notification: InternalFailure/),
      }),
    });
    expect(bus.events).toEqual([]);
    expect(() => createNotifyFormatter({ env: { EVENT_BUS_NAME: 'gtt', NOTIFY_FORMAT: 'raw' } })).toThrow(
      /NOTIFY_FORMAT must be slack or telegram/,
    );
  });
});
