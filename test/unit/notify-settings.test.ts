/** npm start's notify settings are checked with the NotifyFormatter's own schema (local/notify-settings.ts). */
import { describe, expect, it } from 'vitest';

import { createNotifyFormatter } from '../../functions/events/notify-formatter.js';
import { notifySettings } from '../../local/notify-settings.js';

describe("npm start's notify settings", () => {
  it('raw by default, without a chat', () => {
    expect(notifySettings({})).toEqual({ format: 'raw' });
    expect(notifySettings({ NOTIFY_FORMAT: '' })).toEqual({ format: 'raw' });
  });

  it('slack, and telegram with its chat (a numeric id or @channel)', () => {
    expect(notifySettings({ NOTIFY_FORMAT: 'slack' })).toEqual({ format: 'slack', telegramChatId: undefined });
    expect(notifySettings({ NOTIFY_FORMAT: 'telegram', NOTIFY_TELEGRAM_CHAT_ID: '-1001234' })).toEqual({
      format: 'telegram',
      telegramChatId: '-1001234',
    });
    expect(notifySettings({ NOTIFY_FORMAT: 'telegram', NOTIFY_TELEGRAM_CHAT_ID: '@gtt_alerts' }).telegramChatId).toBe(
      '@gtt_alerts',
    );
  });

  it('refuses what the deployed formatter refuses, naming the variable and the way forward', () => {
    expect(() => notifySettings({ NOTIFY_FORMAT: 'teams' })).toThrow(
      'NOTIFY_FORMAT must be raw, slack or telegram, got "teams": set NOTIFY_FORMAT=raw (the default: the event as is), slack or telegram',
    );
    expect(() => notifySettings({ NOTIFY_FORMAT: 'telegram' })).toThrow(
      /^NOTIFY_TELEGRAM_CHAT_ID is required with NOTIFY_FORMAT=telegram: .*, got "": e\.g\. NOTIFY_FORMAT=telegram NOTIFY_TELEGRAM_CHAT_ID=-1001234567890 npm start/,
    );
    expect(() => notifySettings({ NOTIFY_FORMAT: 'telegram', NOTIFY_TELEGRAM_CHAT_ID: 'my chat' })).toThrow(
      /^NOTIFY_TELEGRAM_CHAT_ID must be a numeric chat id \(e\.g\. -1001234567890\) or @channel, got "my chat"/,
    );
    // The same rules as the function's own cold start.
    for (const env of [
      { NOTIFY_FORMAT: 'telegram' },
      { NOTIFY_FORMAT: 'telegram', NOTIFY_TELEGRAM_CHAT_ID: 'my chat' },
    ])
      expect(() => createNotifyFormatter({ env: { EVENT_BUS_NAME: 'gtt', ...env } })).toThrow(
        /NOTIFY_TELEGRAM_CHAT_ID/,
      );
  });
});
