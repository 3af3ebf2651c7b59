/**
 * `npm start`'s notify settings (NOTIFY_FORMAT, NOTIFY_TELEGRAM_CHAT_ID) checked with the NotifyFormatter's own
 * schema (functions/events/notify-formatter.ts, the catalogue's rules): what starts here is what a deployment's
 * formatter takes. `raw`, the default, is the event as is (a deployment's `event` format): no formatter, no rules.
 */
import { environmentOf, envName } from '../functions/base/runtime/env.js';
import { notifyFormatterEnv } from '../functions/events/notify-formatter.js';
import { LOCAL_EVENT_BUS } from './run-local.js';

export interface NotifySettings {
  format: 'raw' | 'slack' | 'telegram';
  telegramChatId?: string | undefined;
}

/** How to put each right, after the schema's own words. */
const WAY_FORWARD: Readonly<Record<string, string>> = {
  [envName('notifyFormat')]: `set ${envName('notifyFormat')}=raw (the default: the event as is), slack or telegram`,
  [envName('notifyTelegramChatId')]:
    `e.g. ${envName('notifyFormat')}=telegram ${envName('notifyTelegramChatId')}=-1001234567890 npm start (or @yourchannel)`,
};

/** The format and chat from npm start's environment; a bad one throws an Error of one line per problem. */
export const notifySettings = (env: Readonly<Record<string, string | undefined>>): NotifySettings => {
  const format = env[envName('notifyFormat')] || 'raw';
  if (format === 'raw') return { format };
  const given = { notifyFormat: format, notifyTelegramChatId: env[envName('notifyTelegramChatId')] };
  const parsed = notifyFormatterEnv.safeParse(environmentOf({ eventBusName: LOCAL_EVENT_BUS, ...given }));
  if (parsed.success) return { format: parsed.data.notifyFormat, telegramChatId: parsed.data.notifyTelegramChatId };
  const lines = parsed.error.issues.map((issue) => {
    const name = String(issue.path[0] ?? '');
    const value = name === envName('notifyFormat') ? given.notifyFormat : given.notifyTelegramChatId;
    const message = name === envName('notifyFormat') ? 'must be raw, slack or telegram' : issue.message;
    return `${name} ${message}, got ${JSON.stringify(value ?? '')}: ${WAY_FORWARD[name] ?? 'see docs/reference/events.md'}`;
  });
  throw new Error([...new Set(lines)].join('\n'));
};
