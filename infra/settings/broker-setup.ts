/**
 * The broker a stack talks to, from the CDK context: `-c broker=<preset>` (functions/base/broker/presets.ts) with any
 * value overridden by `-c brokerBaseUrl=`, `brokerAuth`, `brokerLogin`, `brokerAuthorizeUrl`, `brokerTokenUrl`;
 * `custom` (or no `broker`) takes them from the context, and the two URLs may instead be given at deploy time (the
 * stack's BrokerBaseUrl and BrokerAuthorizeUrl parameters). `sessionRenewal=totp` logs in with QuickAuth, whose
 * token is a jKey: it implies `brokerAuth=jkey` and the preset's classic base URL, and refuses `brokerAuth=bearer`.
 * Every refusal is one line naming the setting.
 */
import type { BrokerAuth } from '../../functions/base/broker/jdata.js';
import {
  LOGIN_FLOWS,
  type LoginFlow,
  PRESET_NAMES,
  PresetError,
  type PresetRateLimits,
  resolvePreset,
} from '../../functions/base/broker/presets.js';

export interface BrokerSetup {
  /** The preset's name, or `custom`. */
  preset: string;
  /** Default of the stack's BrokerBaseUrl parameter; undefined: given at deploy time. */
  baseUrl?: string;
  /** Default of the BrokerAuthorizeUrl parameter (a template with `{clientId}`); undefined: given at deploy time. */
  authorizeUrl?: string;
  auth: BrokerAuth;
  login: LoginFlow;
  tokenUrl?: string;
  /** The scheduled TOTP login (QuickAuth). */
  totp: boolean;
  /** The broker's own order rate (its preset): the governor's defaults unless the deployment sets ORDER_RATE_*. */
  rateLimits?: PresetRateLimits;
}

export const BROKER_CONTEXT_KEYS = [
  'broker',
  'brokerBaseUrl',
  'brokerAuth',
  'brokerLogin',
  'brokerAuthorizeUrl',
  'brokerTokenUrl',
  'sessionRenewal',
] as const;
export type BrokerContext = Partial<Record<(typeof BROKER_CONTEXT_KEYS)[number], string>>;

export const resolveBrokerSetup = (context: BrokerContext): BrokerSetup => {
  const renewal = context.sessionRenewal ?? 'off';
  if (renewal !== 'totp' && renewal !== 'off') {
    throw new PresetError(
      `sessionRenewal must be totp (scheduled TOTP login) or off (browser login, the default); got ${JSON.stringify(renewal)}`,
    );
  }
  const totp = renewal === 'totp';
  if (totp && context.brokerAuth === 'bearer') {
    throw new PresetError(
      'sessionRenewal=totp logs in with QuickAuth, whose token travels as jKey: use brokerAuth=jkey (or leave brokerAuth out)',
    );
  }
  const name = context.broker ?? 'custom';
  if (!(PRESET_NAMES as readonly string[]).includes(name)) {
    throw new PresetError(`broker must be one of ${PRESET_NAMES.join(', ')}; got ${JSON.stringify(name)}`);
  }
  if (context.brokerAuth !== undefined && context.brokerAuth !== 'bearer' && context.brokerAuth !== 'jkey') {
    throw new PresetError(`brokerAuth must be bearer or jkey; got ${JSON.stringify(context.brokerAuth)}`);
  }
  if (context.brokerLogin !== undefined && !(LOGIN_FLOWS as readonly string[]).includes(context.brokerLogin)) {
    throw new PresetError(
      `brokerLogin must be one of ${LOGIN_FLOWS.join(', ')}; got ${JSON.stringify(context.brokerLogin)}`,
    );
  }
  const overrides = {
    ...(context.brokerBaseUrl === undefined ? {} : { baseUrl: context.brokerBaseUrl }),
    ...(context.brokerAuth === undefined ? {} : { auth: context.brokerAuth }),
    ...(context.brokerLogin === undefined ? {} : { login: context.brokerLogin }),
    ...(context.brokerAuthorizeUrl === undefined ? {} : { authorizeUrl: context.brokerAuthorizeUrl }),
    ...(context.brokerTokenUrl === undefined ? {} : { tokenUrl: context.brokerTokenUrl }),
  };
  if (name === 'custom') {
    // The URLs may wait for deploy time; what shapes the template (auth, login, token URL) may not.
    const checked = resolvePreset('custom', {
      baseUrl: 'https://deploy-time.invalid/x',
      authorizeUrl: 'https://deploy-time.invalid/x',
      ...overrides,
    });
    const auth: BrokerAuth = totp ? 'jkey' : checked.auth;
    return {
      preset: 'custom',
      ...(context.brokerBaseUrl === undefined ? {} : { baseUrl: context.brokerBaseUrl }),
      ...(context.brokerAuthorizeUrl === undefined ? {} : { authorizeUrl: context.brokerAuthorizeUrl }),
      auth,
      login: checked.login,
      ...(checked.tokenUrl === undefined ? {} : { tokenUrl: checked.tokenUrl }),
      totp,
    };
  }
  const preset = resolvePreset(name, overrides);
  if (totp && preset.classicBaseUrl === undefined && context.brokerBaseUrl === undefined) {
    throw new PresetError(
      `broker=${name} has no TOTP (QuickAuth) login we know of: leave sessionRenewal out (browser login), or give brokerBaseUrl of its jKey API`,
    );
  }
  return {
    preset: name,
    baseUrl: totp && context.brokerBaseUrl === undefined ? preset.classicBaseUrl! : preset.baseUrl,
    authorizeUrl: preset.authorizeUrl,
    auth: totp ? 'jkey' : preset.auth,
    login: preset.login,
    ...(preset.tokenUrl === undefined ? {} : { tokenUrl: preset.tokenUrl }),
    totp,
    ...(preset.rateLimits === undefined ? {} : { rateLimits: preset.rateLimits }),
  };
};
