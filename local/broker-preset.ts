/**
 * A broker preset on this machine: the preset's paths, auth style and login flow, on the embedded emulator's
 * address instead of the broker's hosts (`npm start -- --broker flattrade` logs in the way Flattrade does, against
 * the emulator). The default, `emulator`, is the emulator's own layout: `/ClientAPI`, Bearer, the OAuth page.
 */
import type { BrokerAuth } from '../functions/base/broker/jdata.js';
import {
  type BrokerPreset,
  type LoginFlow,
  type PresetRateLimits,
  resolvePreset,
} from '../functions/base/broker/presets.js';

export interface LocalBroker {
  preset: string;
  baseUrl: string;
  auth: BrokerAuth;
  login: LoginFlow;
  authorizeUrl: string;
  tokenUrl?: string;
  /** The scheduled TOTP login runs (jKey sessions on the classic base URL). */
  totp: boolean;
  /** The broker's own order rate, when its preset states one. */
  rateLimits?: PresetRateLimits;
}

const onEmulator = (url: string, emulatorUrl: string): string => url.replace(/^https?:\/\/[^/]+/, emulatorUrl);

/** Throws a PresetError (naming the presets) for an unknown name or a TOTP login the broker does not have. */
export const localBroker = (name: string | undefined, emulatorUrl: string, totp = false): LocalBroker => {
  if (name === undefined || name === 'emulator') {
    return {
      preset: 'emulator',
      baseUrl: emulatorUrl,
      auth: totp ? 'jkey' : 'bearer',
      login: 'oauth',
      authorizeUrl: `${emulatorUrl}/OAuthlogin/authorize/oauth?client_id={clientId}`,
      totp,
    };
  }
  const preset: BrokerPreset = resolvePreset(name);
  if (totp && preset.classicBaseUrl === undefined) {
    throw new Error(
      `broker ${preset.name} has no TOTP (QuickAuth) login we know of: use its browser login (no --session-renewal)`,
    );
  }
  return {
    preset: preset.name,
    baseUrl: onEmulator(totp ? preset.classicBaseUrl! : preset.baseUrl, emulatorUrl),
    auth: totp ? 'jkey' : preset.auth,
    login: preset.login,
    authorizeUrl: onEmulator(preset.authorizeUrl, emulatorUrl),
    ...(preset.tokenUrl ? { tokenUrl: onEmulator(preset.tokenUrl, emulatorUrl) } : {}),
    totp,
    ...(preset.rateLimits ? { rateLimits: preset.rateLimits } : {}),
  };
};
