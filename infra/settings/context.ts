/**
 * The deployment's CDK context settings checked before any construct is built, so a bad value fails `cdk synth`
 * with one line naming the setting instead of deploying functions that refuse every call at cold start.
 *
 * The functions' own settings (guardrails, idempotency, secret cache) are checked with the functions' zod schema
 * (the catalogue, functions/base/runtime/env.ts): what synth accepts is exactly what a cold start accepts. The stack's own settings
 * (ARNs, the alarm address, the source-map switch) are checked here; the preset, egress, watcher and webhook
 * settings are checked where they are read (broker-setup.ts, egress.ts, events.ts, webhook-format.ts), with
 * messages that also name the setting.
 */
import type * as z from 'zod';

import { DEPLOYMENT_KEYS, DEPLOYMENT_SETTINGS, envObject } from '../../functions/base/runtime/env.js';
import { ACCOUNT_NAME, ACCOUNT_NAME_RULE } from './accounts.js';

export class SettingError extends Error {
  override readonly name = 'SettingError';
}

const SECRET_ARN = /^arn:aws[a-z-]*:secretsmanager:[a-z]{2}(?:-[a-z]+)+-\d:\d{12}:secret:[\w/+=.@-]+$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** An HTTP header name (RFC 9110 token). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Context keys of the stack itself, beside DEPLOYMENT_SETTINGS, with the check each value must pass. */
export const STACK_CONTEXT_CHECKS: Record<string, { test: (value: string) => boolean; expect: string }> = {
  brokerSecretArn: {
    test: (v) => SECRET_ARN.test(v),
    expect: 'a Secrets Manager secret ARN (arn:aws:secretsmanager:<region>:<account>:secret:<name>)',
  },
  oauthAppSecretArn: {
    test: (v) => SECRET_ARN.test(v),
    expect: 'a Secrets Manager secret ARN (arn:aws:secretsmanager:<region>:<account>:secret:<name>)',
  },
  notifyWebhookSecretArn: {
    test: (v) => SECRET_ARN.test(v),
    expect: 'a Secrets Manager secret ARN (arn:aws:secretsmanager:<region>:<account>:secret:<name>)',
  },
  notifyWebhookHeader: { test: (v) => HEADER_NAME.test(v), expect: 'an HTTP header name, e.g. X-Api-Key' },
  alarmEmail: { test: (v) => EMAIL.test(v), expect: 'an email address' },
  enableSourceMaps: { test: (v) => v === 'true' || v === 'false', expect: 'true or false' },
  account: { test: (v) => ACCOUNT_NAME.test(v), expect: ACCOUNT_NAME_RULE },
};

/** The functions' settings as the functions read them (by name), without the wiring the stack fills in. */
const deploymentSettingsSchema = envObject(DEPLOYMENT_KEYS);

/** Names that look like a function setting (`GUARDRAIL_MAX_QYT`) but are none: a typo would silently do nothing. */
const LOOKS_LIKE_A_SETTING = /^(GUARDRAIL|IDEMPOTENCY|SECRET|BROKER|WATCHER)_/;

/** zod's number messages in the words of the other refusals. */
const plain = (issue: z.core.$ZodIssue): string => {
  if (issue.code === 'too_small') return `must be at least ${String(issue.minimum)}`;
  if (issue.code === 'too_big') return `must be at most ${String(issue.maximum)}`;
  if (issue.code === 'invalid_type' && issue.expected === 'number') return 'must be a number';
  if (issue.code === 'invalid_type' && issue.expected === 'int') return 'must be a whole number';
  return issue.message;
};

const shown = (value: string): string => JSON.stringify(value.length > 80 ? `${value.slice(0, 77)}...` : value);

/**
 * Refuses the first bad context value (or all of the functions' settings at once) with one line naming each
 * setting and what it must be. `context` holds every key the app was given (`-c`, cdk.json, cdk.context.json).
 */
export const checkContextSettings = (context: Record<string, unknown>): void => {
  const value = (name: string): string | undefined => {
    const v = context[name];
    return v === undefined || v === null ? undefined : String(v);
  };
  const unknown = Object.keys(context).filter(
    (name) => LOOKS_LIKE_A_SETTING.test(name) && !(DEPLOYMENT_SETTINGS as readonly string[]).includes(name),
  );
  if (unknown.length) {
    throw new SettingError(
      `unknown setting ${unknown.map((n) => `-c ${n}`).join(', ')}: the functions' settings are ${DEPLOYMENT_SETTINGS.join(', ')}`,
    );
  }
  const given = Object.fromEntries(
    DEPLOYMENT_SETTINGS.flatMap((name) => (value(name) === undefined ? [] : [[name, value(name)]])),
  );
  const parsed = deploymentSettingsSchema.safeParse(given);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => {
      const name = String(issue.path[0] ?? '');
      return `-c ${name}=${shown(value(name) ?? '')} ${plain(issue)}`;
    });
    throw new SettingError(`bad setting: ${[...new Set(problems)].join('; ')}`);
  }
  for (const [name, check] of Object.entries(STACK_CONTEXT_CHECKS)) {
    const v = value(name);
    if (v !== undefined && !check.test(v))
      throw new SettingError(`bad setting: -c ${name}=${shown(v)} must be ${check.expect}`);
  }
};
