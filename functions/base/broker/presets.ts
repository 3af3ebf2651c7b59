/**
 * Broker presets: what differs between the brokers of this API family for one deployment (base URL with its path
 * prefix, how the token travels, how a trader logs in, the login page's address). `-c broker=<name>` at synth and
 * `npm start -- --broker <name>` pick one; `custom` takes every value from the deployment. docs/explanation/brokers.md says per
 * broker what to register and which secret gets which field, and marks what is uncertain.
 *
 * Sources, read in November 2026 (public code written against the live brokers, and the brokers' own docs):
 * - a unified multi-broker gateway's Noren plugin configurations (one per broker: REST URL, dialect, login kind,
 *   authorize and token URLs), the most recent evidence;
 * - the official Noren OAuth Python client and a Node OAuth client (GenAcsTok, Bearer, `client_id` links);
 * - Flattrade's own token generator and PiConnect docs (`auth.flattrade.in`, `authapi.flattrade.in/trade/apitoken`);
 * - browser-automation scripts of the Shoonya sign-in page (`api_key` links, `investor-entry-level`).
 */
import type { BrokerAuth } from './jdata.js';

/**
 * How a trader's browser login becomes a token:
 * - `oauth`: the Noren OAuth page, then GenAcsTok (code + sha256(clientId + secretCode + code)) -> `access_token`;
 * - `flattrade`: Flattrade's own page, then a JSON POST to its token URL (api_key, request_code,
 *   sha256(api_key + code + secret)) -> `token`, used as jKey.
 * A classic (TOTP) deployment also logs in every morning without a browser (QuickAuth, `sessionRenewal=totp`).
 */
export type LoginFlow = 'oauth' | 'flattrade';
export const LOGIN_FLOWS: readonly LoginFlow[] = ['oauth', 'flattrade'];

/** A broker's own order-rate cap, where it states one: the governor's defaults for that broker (docs/explanation/compliance.md). */
export interface PresetRateLimits {
  perSecond: number;
  perMinute: number;
}

export interface BrokerPreset {
  name: string;
  label: string;
  /** Trading calls go to `{baseUrl}/<Operation>` (OAuth deployments). */
  baseUrl: string;
  auth: BrokerAuth;
  login: LoginFlow;
  /**
   * The login page, as a template: `{clientId}` (the app's client id or API key) and `{uid}` (the account) are
   * filled in; a template without `{clientId}` gets `client_id=<id>` added. The start route adds `state` too.
   */
  authorizeUrl: string;
  /** `flattrade` login: where the code is exchanged for a token. */
  tokenUrl?: string;
  /**
   * Classic deployments (QuickAuth with TOTP, `sessionRenewal=totp`): the base URL of the jKey API. Absent: this
   * broker has no QuickAuth login we know of, and the pair is refused at synth.
   */
  classicBaseUrl?: string;
  /** QuickAuth's vendor code when the login secret names none; `{uid}` is filled in. */
  vendorCode?: string;
  /**
   * The broker's stated order rate; absent: the gateway's defaults (8 a second, 120 a minute). The deployment's
   * ORDER_RATE_PER_SECOND / ORDER_RATE_PER_MINUTE win over it.
   */
  rateLimits?: PresetRateLimits;
  /**
   * Whether the broker's GTT operations (PlaceGTTOrder, PlaceOCOOrder and their modifies) take `algo_id`: `yes`,
   * `no`, or `unknown` (then the gateway sends it only when the deployment sets its `algoId`; docs/explanation/brokers.md).
   */
  gttAlgoId: 'yes' | 'no' | 'unknown';
  /** Values not confirmed by a second source (docs/explanation/brokers.md repeats them). */
  uncertain?: string[];
}

export const BROKER_PRESETS = {
  // Shoonya (Finvasia). OAuth on NorenWClientAPI with Bearer (gateway plugin config; official OAuth client);
  // QuickAuth on NorenWClientTP with jKey (every classic client). Links in both forms are in use (scripts).
  shoonya: {
    name: 'shoonya',
    label: 'Shoonya (Finvasia)',
    baseUrl: 'https://api.shoonya.com/NorenWClientAPI',
    gttAlgoId: 'unknown',
    auth: 'bearer',
    login: 'oauth',
    authorizeUrl: 'https://api.shoonya.com/OAuthlogin/authorize/oauth?client_id={clientId}',
    classicBaseUrl: 'https://api.shoonya.com/NorenWClientTP',
    vendorCode: '{uid}_U',
  },
  // Zebu (MYNT). OAuth on go.mynt.in/NorenWClientAPI with Bearer (gateway plugin config; Zebu's own app routes);
  // the classic jKey API on NorenWClientTP (Zebu's API docs).
  zebu: {
    name: 'zebu',
    label: 'Zebu (MYNT)',
    baseUrl: 'https://go.mynt.in/NorenWClientAPI',
    gttAlgoId: 'unknown',
    auth: 'bearer',
    login: 'oauth',
    authorizeUrl: 'https://go.mynt.in/OAuthlogin/authorize/oauth?client_id={clientId}',
    classicBaseUrl: 'https://go.mynt.in/NorenWClientTP',
    vendorCode: '{uid}_U',
    uncertain: [
      'whether GenAcsTok answers on NorenWClientAPI or NorenWClientTP on this host (both are seen for the family)',
    ],
  },
  // Flattrade. Its own login (Flattrade's token generator and docs); the token goes as jKey. The API prefix is
  // PiConnectTP in Flattrade's docs and most clients, PiConnectAPI in the gateway plugin config.
  flattrade: {
    name: 'flattrade',
    label: 'Flattrade',
    baseUrl: 'https://piconnect.flattrade.in/PiConnectTP',
    gttAlgoId: 'unknown',
    auth: 'jkey',
    login: 'flattrade',
    authorizeUrl: 'https://auth.flattrade.in/?app_key={clientId}',
    tokenUrl: 'https://authapi.flattrade.in/trade/apitoken',
    uncertain: [
      'the API prefix: PiConnectTP (docs, most clients) or PiConnectAPI (one recent gateway); set -c brokerBaseUrl to the other if calls answer 404',
    ],
  },
  // TradeSmart. Noren v2 with Bearer and GenAcsTok (gateway plugin config), one source only.
  tradesmart: {
    name: 'tradesmart',
    label: 'TradeSmart',
    baseUrl: 'https://v2api.tradesmartonline.in/NorenWClientAPIv2',
    gttAlgoId: 'unknown',
    // The same multi-broker gateway's TradeSmart config caps orders at 8 a second and 110 a minute.
    rateLimits: { perSecond: 8, perMinute: 110 },
    auth: 'bearer',
    login: 'oauth',
    authorizeUrl: 'https://v2api.tradesmartonline.in/OAuthlogin/authorize/oauth?client_id={clientId}',
    uncertain: ['every value: a single public source'],
  },
} as const satisfies Record<string, BrokerPreset>;

export type PresetName = keyof typeof BROKER_PRESETS;
/** Every preset name, with `custom` (every value given by the deployment). */
export const PRESET_NAMES = [...(Object.keys(BROKER_PRESETS) as PresetName[]), 'custom'] as const;

/** The values a `custom` deployment gives (and any preset's value a deployment overrides). */
export interface PresetOverrides {
  baseUrl?: string;
  auth?: string;
  login?: string;
  authorizeUrl?: string;
  tokenUrl?: string;
}

export class PresetError extends Error {
  override readonly name = 'PresetError';
}

const isHttpUrl = (value: string): boolean => {
  try {
    const url = new URL(value.replace(/\{(clientId|uid)\}/g, 'x'));
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
};

/**
 * A preset by name with the deployment's overrides, checked: an unknown name lists the presets; `custom` needs a
 * base URL and an authorize URL (and a token URL for the `flattrade` login); every URL must be http(s).
 */
export const resolvePreset = (name: string | undefined, overrides: PresetOverrides = {}): BrokerPreset => {
  const chosen = name ?? 'custom';
  if (!(PRESET_NAMES as readonly string[]).includes(chosen)) {
    throw new PresetError(`broker must be one of ${PRESET_NAMES.join(', ')}; got ${JSON.stringify(chosen)}`);
  }
  const base: Partial<BrokerPreset> =
    chosen === 'custom'
      ? { name: 'custom', label: 'Custom broker', auth: 'bearer', login: 'oauth', gttAlgoId: 'unknown' }
      : BROKER_PRESETS[chosen as PresetName];
  if (overrides.auth !== undefined && overrides.auth !== 'bearer' && overrides.auth !== 'jkey') {
    throw new PresetError(`brokerAuth must be bearer or jkey; got ${JSON.stringify(overrides.auth)}`);
  }
  if (overrides.login !== undefined && !(LOGIN_FLOWS as readonly string[]).includes(overrides.login)) {
    throw new PresetError(
      `brokerLogin must be one of ${LOGIN_FLOWS.join(', ')}; got ${JSON.stringify(overrides.login)}`,
    );
  }
  const preset = {
    ...base,
    ...(overrides.baseUrl === undefined ? {} : { baseUrl: overrides.baseUrl }),
    ...(overrides.auth === undefined ? {} : { auth: overrides.auth as BrokerAuth }),
    ...(overrides.login === undefined ? {} : { login: overrides.login as LoginFlow }),
    ...(overrides.authorizeUrl === undefined ? {} : { authorizeUrl: overrides.authorizeUrl }),
    ...(overrides.tokenUrl === undefined ? {} : { tokenUrl: overrides.tokenUrl }),
  } as Partial<BrokerPreset>;
  const missing = [
    preset.baseUrl === undefined ? 'brokerBaseUrl' : '',
    preset.authorizeUrl === undefined ? 'brokerAuthorizeUrl' : '',
    preset.login === 'flattrade' && preset.tokenUrl === undefined ? 'brokerTokenUrl' : '',
  ].filter(Boolean);
  if (missing.length) throw new PresetError(`broker=${chosen} needs ${missing.join(', ')} (-c name=value)`);
  for (const [key, value] of [
    ['brokerBaseUrl', preset.baseUrl],
    ['brokerAuthorizeUrl', preset.authorizeUrl],
    ['brokerTokenUrl', preset.tokenUrl],
  ] as const) {
    if (value !== undefined && !isHttpUrl(value))
      throw new PresetError(`${key} must be an http(s) URL; got ${JSON.stringify(value)}`);
  }
  return preset as BrokerPreset;
};

/**
 * The login page for one app: the template's `{clientId}` and `{uid}` filled in (URL-encoded); a template without
 * `{clientId}` gets `client_id`, the parameter of the Noren OAuth page.
 */
export const authorizeLink = (template: string, values: { clientId: string; uid: string }): URL => {
  const filled = template
    .replace(/\{clientId\}/g, encodeURIComponent(values.clientId))
    .replace(/\{uid\}/g, encodeURIComponent(values.uid));
  const url = new URL(filled);
  if (!template.includes('{clientId}')) url.searchParams.set('client_id', values.clientId);
  return url;
};
