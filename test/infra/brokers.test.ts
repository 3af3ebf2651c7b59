/**
 * Broker presets at synth (`-c broker=NAME`): each preset sets the base URL and login page parameters' defaults,
 * the token style and the login flow of the functions; a bad name, a bad pair (TOTP login with Bearer) or a TOTP
 * login on a broker without one fails the synth with one line naming the setting. `GET /session` is IAM-authorised.
 */
import { App } from 'aws-cdk-lib';
import type { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';

import { BROKER_PRESETS } from '../../functions/base/broker/presets.js';
import { buildApp } from '../../infra/stacks/app.js';
import { gatewayTemplate } from '../support/gateway-template.js';

const synth = (context: Record<string, unknown> = {}) =>
  buildApp(new App({ context: { 'aws:cdk:bundling-stacks': [], watcher: 'off', egress: 'none', ...context } }));

type Fn = { Properties: { Environment?: { Variables?: Record<string, unknown> }; Description?: string } };
/** The environment of the function whose description starts with `gtt-gateway: <summary start>`. */
const envOf = (t: Template, description: RegExp): Record<string, unknown> => {
  const fns = Object.values(t.findResources('AWS::Lambda::Function')) as Fn[];
  const fn = fns.find((f) => description.test(String(f.Properties.Description)));
  if (!fn) throw new Error(`no function ${String(description)}`);
  return fn.Properties.Environment?.Variables ?? {};
};
const OAUTH = /OAuth login/;

describe('broker presets', () => {
  it.each(Object.values(BROKER_PRESETS).map((p) => [p.name, p] as const))(
    '%s: parameter defaults, token style and login flow',
    (name, preset) => {
      const t = gatewayTemplate(synth({ broker: name }));
      const parameters = t.toJSON().Parameters as Record<string, { Default?: string }>;
      expect(parameters.BrokerBaseUrl!.Default).toBe(preset.baseUrl);
      expect(parameters.BrokerAuthorizeUrl!.Default).toBe(preset.authorizeUrl);
      const oauth = envOf(t, OAUTH);
      expect(oauth).toMatchObject({ BROKER_AUTH: preset.auth, BROKER_LOGIN: preset.login });
      if ('tokenUrl' in preset) expect(oauth.BROKER_TOKEN_URL).toBe(preset.tokenUrl);
      else expect(oauth.BROKER_TOKEN_URL).toBeUndefined();
      // Every order function sends the token the preset's way.
      const fns = Object.values(t.findResources('AWS::Lambda::Function')) as Fn[];
      const withAuth = fns.filter((f) => f.Properties.Environment?.Variables?.BROKER_AUTH !== undefined);
      expect(withAuth.length).toBeGreaterThanOrEqual(12);
      for (const f of withAuth) expect(f.Properties.Environment!.Variables!.BROKER_AUTH).toBe(preset.auth);
    },
  );

  it('no broker: custom, Bearer and the OAuth login, the base URL given at deploy', () => {
    const t = gatewayTemplate(synth());
    const parameters = t.toJSON().Parameters as Record<string, { Default?: string }>;
    expect(parameters.BrokerBaseUrl!.Default).toBeUndefined();
    expect(envOf(t, OAUTH)).toMatchObject({ BROKER_AUTH: 'bearer', BROKER_LOGIN: 'oauth' });
  });

  it('custom with every value given', () => {
    const t = gatewayTemplate(
      synth({
        broker: 'custom',
        brokerBaseUrl: 'https://api.example.test/NorenWClientAPI',
        brokerAuthorizeUrl: 'https://login.example.test/?key={clientId}',
        brokerLogin: 'flattrade',
        brokerTokenUrl: 'https://login.example.test/token',
        brokerAuth: 'jkey',
      }),
    );
    const parameters = t.toJSON().Parameters as Record<string, { Default?: string }>;
    expect(parameters.BrokerBaseUrl!.Default).toBe('https://api.example.test/NorenWClientAPI');
    expect(envOf(t, OAUTH)).toMatchObject({
      BROKER_AUTH: 'jkey',
      BROKER_LOGIN: 'flattrade',
      BROKER_TOKEN_URL: 'https://login.example.test/token',
    });
  });

  it('sessionRenewal=totp implies jKey and the classic base URL; SessionRenewal is added', () => {
    const t = gatewayTemplate(synth({ broker: 'shoonya', sessionRenewal: 'totp' }));
    const parameters = t.toJSON().Parameters as Record<string, { Default?: string }>;
    expect(parameters.BrokerBaseUrl!.Default).toBe('https://api.shoonya.com/NorenWClientTP');
    expect(envOf(t, /TOTP/)).toMatchObject({ BROKER_AUTH: 'jkey' });
    expect(envOf(t, OAUTH)).toMatchObject({ BROKER_AUTH: 'jkey' });
  });

  it.each<[string, Record<string, string>, RegExp]>([
    [
      'an unknown preset',
      { broker: 'zerodha' },
      /^broker must be one of shoonya, zebu, flattrade, tradesmart, custom; got "zerodha"$/,
    ],
    [
      'a TOTP login sending the token as Bearer',
      { sessionRenewal: 'totp', brokerAuth: 'bearer' },
      /sessionRenewal=totp .* brokerAuth=jkey/,
    ],
    [
      'a TOTP login on a broker without QuickAuth',
      { broker: 'flattrade', sessionRenewal: 'totp' },
      /broker=flattrade has no TOTP/,
    ],
    ['an unknown login flow', { brokerLogin: 'saml' }, /brokerLogin must be one of oauth, flattrade/],
    ['a Flattrade login without its token URL', { brokerLogin: 'flattrade' }, /needs brokerTokenUrl/],
    [
      'a base URL that is no URL',
      { broker: 'zebu', brokerBaseUrl: 'go.mynt.in' },
      /brokerBaseUrl must be an http\(s\) URL/,
    ],
  ])('%s fails the synth with one line naming the setting', (_label, context, message) => {
    expect(() => synth(context)).toThrow(message);
  });

  it('GET /session is IAM-authorised', () => {
    const t = gatewayTemplate(synth());
    t.hasResourceProperties('AWS::ApiGatewayV2::Route', { RouteKey: 'GET /session', AuthorizationType: 'AWS_IAM' });
  });
});
