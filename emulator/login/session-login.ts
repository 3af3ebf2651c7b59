/**
 * How a client gets a session token: the login pages (sign in with user id, password and OTP, as on the real page),
 * GenAcsTok (authorization code -> Bearer access token), Flattrade's token exchange (code -> jKey token) and
 * QuickAuth (password + TOTP -> jKey token). Every token issued here is a new session of the account; earlier tokens
 * keep working until logged out or expired through the control surface. See docs/explanation/emulator-extensions.md.
 */
import { randomBytes, randomUUID } from 'node:crypto';

import { Secret, TOTP } from 'otpauth';

import { requestTime } from '../state/formats.js';
import { type EmulatorReply, html, json } from '../wire/reply.js';
import {
  checkRedirectUrl,
  escapeHtml,
  type LoginCredentials,
  type LoginOptions,
  nextSessionEnd,
  normaliseSeed,
  type OAuthApp,
  ORDER_TYPES,
  printable,
  PRODUCTS,
  QUICKAUTH_FIELDS,
  sha256Hex,
} from './login-rules.js';

export {
  checkRedirectUrl,
  type LoginCredentials,
  type LoginOptions,
  nextSessionEnd,
  normaliseSeed,
  type OAuthApp,
  sha256Hex,
} from './login-rules.js';
import { type Account, DEMO_BROKER, DEMO_UID, type EmulatorState, EXCHANGES, newToken } from '../state/state.js';

export const CODE_TTL_MS = 5 * 60 * 1000;
const MAX_OUTSTANDING_CODES = 1_000;
type Json = Record<string, unknown>;
/** Which login issued a code: the Noren OAuth page (GenAcsTok) or Flattrade's (its token URL). */
export type CodeFlavour = 'oauth' | 'flattrade';

export class SessionLogin {
  readonly credentials: LoginCredentials;
  readonly oauth: OAuthApp;
  private readonly totp: TOTP;

  constructor(
    options: LoginOptions,
    private readonly state: EmulatorState,
    private readonly now: () => Date,
  ) {
    this.credentials = {
      password: printable(options.password ?? randomBytes(9).toString('base64url'), 8, 'password'),
      totpSeed: normaliseSeed(options.totpSeed ?? new Secret({ size: 20 }).base32),
      apiSecret: printable(options.apiSecret ?? randomBytes(16).toString('hex'), 8, 'apiSecret'),
    };
    this.oauth = {
      clientId: printable(options.oauthClientId ?? `${DEMO_UID}_U`, 1, 'oauthClientId'),
      secret: printable(options.oauthSecret ?? randomBytes(16).toString('hex'), 8, 'oauthSecret'),
      redirectUrl: options.oauthRedirectUrl === undefined ? null : checkRedirectUrl(options.oauthRedirectUrl),
    };
    this.totp = new TOTP({
      secret: Secret.fromBase32(this.credentials.totpSeed),
      algorithm: 'SHA1',
      digits: 6,
      period: 30,
    });
  }

  /** Literal strings the request log must never show. */
  secrets(): string[] {
    const { password, totpSeed, apiSecret } = this.credentials;
    // The sign-in form posts the password form-encoded.
    const formEncoded = new URLSearchParams({ p: password }).toString().slice(2);
    return [
      password,
      encodeURIComponent(password),
      formEncoded,
      sha256Hex(password),
      totpSeed,
      apiSecret,
      this.oauth.secret,
    ];
  }

  setRedirectUrl(url: string): void {
    this.oauth.redirectUrl = checkRedirectUrl(url);
  }

  // ---- the login pages --------------------------------------------------------------------------------------

  /**
   * A broker login page, in every form seen: the Noren OAuth page (`.../authorize/oauth?client_id=` or `api_key=`,
   * `/OAuthlogin?api_key=`, `/OAuthlogin/investor-entry-level/login?api_key=&route_to=<uid>`) and Flattrade's
   * (`/?app_key=`). GET shows the sign-in form (user id, password, OTP: ids and names `lgnusrid`, `lgnpwd`, `lgnotp`,
   * and a LOGIN button, as on the real page); POST of that form checks them against the demo credentials and redirects to the registered URL with
   * `code` (and `client` on Flattrade's). `state` is passed through only with the `echoOAuthState` switch: the live
   * brokers are seen to drop it.
   */
  loginPage(
    method: string,
    query: URLSearchParams,
    form: string,
    flavour: CodeFlavour,
    echoState: boolean,
  ): EmulatorReply {
    const page = (status: number, title: string, text: string) =>
      html(
        status,
        `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1>${text}</body></html>`,
      );
    if (method !== 'GET' && method !== 'POST')
      return json(405, { stat: 'Not_Ok', emsg: `Invalid Input : method ${method} not allowed, use GET` });
    const keyParam = flavour === 'flattrade' ? 'app_key' : query.has('api_key') ? 'api_key' : 'client_id';
    const clientId = query.get(keyParam);
    if (clientId !== this.oauth.clientId)
      return page(400, 'Invalid client', `<p>Unknown ${keyParam} ${escapeHtml(String(clientId))}.</p>`);
    if (method === 'GET') {
      const user = query.get('route_to') ?? '';
      return page(
        200,
        `${flavour === 'flattrade' ? 'Flattrade' : DEMO_BROKER} sign-in (emulator)`,
        // Ids as names, and a button labelled LOGIN: real automation (Selenium) finds the inputs by id and clicks
        // the element whose text is LOGIN (docs/reference/emulator.md, the login page decision).
        `<form method="post" id="lgnform"><label for="lgnusrid">User id</label> <input id="lgnusrid" name="lgnusrid" value="${escapeHtml(user)}" autocomplete="username"> ` +
          '<label for="lgnpwd">Password</label> <input id="lgnpwd" name="lgnpwd" type="password" autocomplete="current-password"> ' +
          '<label for="lgnotp">OTP</label> <input id="lgnotp" name="lgnotp" inputmode="numeric" autocomplete="one-time-code"> ' +
          '<button type="submit" id="lgnbtn">LOGIN</button></form>',
      );
    }
    const fields = new URLSearchParams(form);
    const uid = fields.get('lgnusrid') ?? '';
    const refuse = (text: string) => page(401, 'Sign-in failed', `<p>${text}</p>`);
    if (!this.state.accounts.has(uid)) return refuse('Invalid user id or password.');
    if (fields.get('lgnpwd') !== this.credentials.password) return refuse('Invalid user id or password.');
    if (!this.otpValid(fields.get('lgnotp') ?? '')) return refuse('Invalid OTP.');
    if (this.oauth.redirectUrl === null) {
      return page(
        400,
        'No redirect URL',
        '<p>No redirect URL is registered for this app: POST /_emulator/oauth {"redirectUrl": "..."}.</p>',
      );
    }
    const code = this.issueCode(uid, clientId, flavour);
    const target = new URL(this.oauth.redirectUrl);
    target.searchParams.set('code', code);
    if (flavour === 'flattrade') target.searchParams.set('client', uid);
    const state = query.get('state');
    if (echoState && state !== null && !target.searchParams.has('state')) target.searchParams.set('state', state);
    const location = target.toString();
    return {
      status: 302,
      body: '',
      contentType: 'text/plain',
      headers: { location },
      logReply: { location: location.split(code).join('<redacted>') },
    };
  }

  /** The current TOTP of the demo credentials (`GET /_emulator/otp`: what the trader's authenticator shows). */
  currentOtp(): string {
    return this.totp.generate({ timestamp: this.now().getTime() });
  }

  private otpValid(otp: string): boolean {
    return (
      /^\d{6}$/.test(otp) && this.totp.validate({ token: otp, timestamp: this.now().getTime(), window: 1 }) !== null
    );
  }

  private issueCode(uid: string, clientId: string, flavour: CodeFlavour): string {
    const now = this.now().getTime();
    for (const [code, entry] of this.state.oauthCodes) if (entry.expiresAt <= now) this.state.oauthCodes.delete(code);
    while (this.state.oauthCodes.size >= MAX_OUTSTANDING_CODES)
      this.state.oauthCodes.delete(this.state.oauthCodes.keys().next().value!);
    const code = randomUUID();
    this.state.oauthCodes.set(code, { uid, clientId, expiresAt: now + CODE_TTL_MS, flavour });
    return code;
  }

  /** A live code of this flavour, or undefined (unknown, another flavour's, or expired: then it is dropped). */
  private liveCode(code: unknown, flavour: CodeFlavour) {
    if (typeof code !== 'string') return undefined;
    const issued = this.state.oauthCodes.get(code);
    if (!issued || issued.flavour !== flavour) return undefined;
    if (issued.expiresAt <= this.now().getTime()) {
      this.state.oauthCodes.delete(code);
      return undefined;
    }
    return issued;
  }

  // ---- Flattrade's token exchange (POST /trade/apitoken, JSON) ---------------------------------------------------

  /** `{api_key, request_code, api_secret = sha256(api_key + request_code + secret)}` -> `{stat, token, client, emsg}`. */
  flattradeToken(fields: Json): EmulatorReply {
    const refuse = (emsg: string) => json(200, { stat: 'Not_Ok', emsg });
    const { api_key: apiKey, request_code: code, api_secret: apiSecret } = fields;
    if (typeof apiKey !== 'string' || typeof code !== 'string' || typeof apiSecret !== 'string')
      return refuse('api_key, request_code and api_secret are required');
    if (apiKey !== this.oauth.clientId) return refuse('Invalid api_key');
    const issued = this.liveCode(code, 'flattrade');
    if (!issued) return refuse('Invalid request_code');
    if (apiSecret !== sha256Hex(`${apiKey}${code}${this.oauth.secret}`)) return refuse('Invalid api_secret');
    if (!this.state.accounts.has(issued.uid)) return refuse('Invalid request_code');
    this.state.oauthCodes.delete(code);
    // Used as jKey, as every Flattrade client sends it.
    const token = this.state.addSession(issued.uid, undefined, 'jkey');
    return json(200, { stat: 'Ok', token, client: issued.uid, emsg: '' });
  }

  // ---- GenAcsTok -----------------------------------------------------------------------------------------------

  /**
   * `{code, checksum, uid}` -> an access token. Without `uid` (as one live client sends it) the exchange is refused
   * `INVALID_VERIFIER` unless `withoutUid` (the `genAcsTokWithoutUid` switch): then the account is the code's. A
   * `uid` that is sent must be the code's either way. A refusal leaves the code as it was.
   */
  genAcsTok(fields: Json, invalidStatus: number, withoutUid = false): EmulatorReply {
    const sentUid = typeof fields.uid === 'string' ? fields.uid : '';
    const refuse = () =>
      json(invalidStatus, { stat: 'Not_Ok', emsg: 'Invalid Input : INVALID_VERIFIER', uid: sentUid });
    const { code, checksum } = fields;
    if (typeof code !== 'string' || typeof checksum !== 'string') return refuse();
    if (sentUid === '' && !(withoutUid && fields.uid === undefined)) return refuse();
    const issued = this.liveCode(code, 'oauth');
    if (!issued || (sentUid !== '' && issued.uid !== sentUid)) return refuse();
    const uid = issued.uid;
    if (checksum !== sha256Hex(`${issued.clientId}${this.oauth.secret}${code}`)) return refuse();
    const account = this.state.accounts.get(uid);
    if (!account) return refuse();
    this.state.oauthCodes.delete(code); // single use: only a successful exchange uses a code up
    const accessToken = this.state.addSession(uid);
    const refreshToken = newToken();
    this.state.knownTokens.add(refreshToken);
    const now = this.now();
    return json(200, {
      stat: 'Ok',
      request_time: requestTime(now),
      USERID: uid,
      uid,
      actid: account.actid,
      uname: account.client.cliname,
      email: account.client.email,
      access_token: accessToken,
      refresh_token: refreshToken,
      expires_in: nextSessionEnd(now),
      scope: 'all',
      susertoken: accessToken,
      lastaccesstime: String(Math.floor(now.getTime() / 1000)),
      ...this.accountFacts(account),
    });
  }

  // ---- QuickAuth -----------------------------------------------------------------------------------------------

  quickAuth(fields: Json, invalidStatus: number): EmulatorReply {
    const now = this.now();
    const refuse = (reason: string) =>
      json(invalidStatus, { request_time: requestTime(now), stat: 'Not_Ok', emsg: `Invalid Input : ${reason}` });
    if (QUICKAUTH_FIELDS.some((f) => typeof fields[f] !== 'string' || fields[f] === '')) {
      return refuse(`${QUICKAUTH_FIELDS.join(' or ')} is Missing.`);
    }
    const text = (field: string) => fields[field] as string;
    const account = this.state.accounts.get(text('uid'));
    if (!account) return refuse('Invalid User Id');
    if (text('pwd') !== sha256Hex(this.credentials.password)) return refuse('Wrong Password');
    if (!this.otpValid(text('factor2'))) {
      return refuse('Invalid OTP');
    }
    // Two spaces after the colon, as a captured broker reply has it.
    if (text('appkey') !== sha256Hex(`${account.uid}|${this.credentials.apiSecret}`)) return refuse(' Invalid App Key');
    // A jKey session: every client sends QuickAuth's token as `&jKey=`, none as Bearer.
    const token = this.state.addSession(account.uid, undefined, 'jkey');
    return json(200, {
      request_time: requestTime(now),
      stat: 'Ok',
      susertoken: token,
      lastaccesstime: String(Math.floor(now.getTime() / 1000)),
      actid: account.actid,
      uname: account.client.cliname,
      email: account.client.email,
      ...this.accountFacts(account),
    });
  }

  private accountFacts(account: Account) {
    return {
      brkname: DEMO_BROKER,
      brnchid: 'HO',
      exarr: [...account.client.exarr],
      prarr: PRODUCTS.map((p) => ({ ...p, exch: [...EXCHANGES] })),
      orarr: [...ORDER_TYPES],
    };
  }
}
