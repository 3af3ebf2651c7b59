/**
 * The deployed bundles take AWS credentials from the environment only (functions/base/runtime/env-credentials.ts, aliased
 * for `@aws-sdk/credential-provider-node` by infra/constructs/gateway-function.ts): a real esbuild bundle of one
 * function holds none of the SDK's SSO, STS or instance-metadata providers, and still signs its first call (the
 * session secret's read, started at init) with the credentials Lambda puts in the environment.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { App, Stack } from 'aws-cdk-lib';
import * as logs from 'aws-cdk-lib/aws-logs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { environmentOf } from '../../functions/base/runtime/env.js';
import { GatewayFunction } from '../../infra/constructs/gateway-function.js';

let outdir: string;
let bundle: string;

beforeAll(() => {
  outdir = mkdtempSync(join(tmpdir(), 'gtt-bundle-'));
  const app = new App({ outdir });
  const stack = new Stack(app, 'Bundle');
  new GatewayFunction(stack, 'ClientDetails', {
    entry: 'functions/handlers/client-details.ts',
    description: 'bundle test',
    roleDescription: 'bundle test',
    environment: {},
    logRetention: logs.RetentionDays.ONE_DAY,
  });
  app.synth();
  const asset = readdirSync(outdir).find((name) => name.startsWith('asset.'));
  if (!asset) throw new Error(`no bundle in ${outdir}`);
  bundle = join(outdir, asset, 'index.mjs');
}, 120_000);

afterAll(() => {
  rmSync(outdir, { recursive: true, force: true });
});

/** Imports the bundle in a fresh process with `env`; resolves with the headers of the first request it makes. */
const firstRequestHeaders = async (env: Record<string, string>): Promise<IncomingHttpHeaders> => {
  let seen: IncomingHttpHeaders | undefined;
  const server = createServer((req, res) => {
    seen ??= req.headers;
    req.resume();
    req.on('end', () => {
      res.setHeader('content-type', 'application/x-amz-json-1.1');
      res.end(JSON.stringify({ SecretString: JSON.stringify({ accessToken: 'tok', uid: 'U1', actid: 'U1' }) }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const child = spawn(process.execPath, ['--input-type=module', '-e', `await import(${JSON.stringify(bundle)})`], {
      env: {
        PATH: process.env.PATH ?? '',
        HOME: mkdtempSync(join(tmpdir(), 'gtt-home-')),
        AWS_REGION: 'ap-south-1',
        POWERTOOLS_LOG_LEVEL: 'SILENT',
        ...environmentOf({
          brokerBaseUrl: url,
          brokerSecretId: 'gtt/session',
          secretsManagerEndpoint: url,
          idempotencyKeyRequired: false,
        }),
        ...env,
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const killer = setTimeout(() => child.kill(), 15_000);
    await new Promise((resolve) => child.on('exit', resolve));
    clearTimeout(killer);
  } finally {
    server.close();
  }
  if (!seen) throw new Error('the bundle made no request');
  return seen;
};

describe('deployed bundle credentials', () => {
  it('holds none of the default chain: no SSO, STS, INI files or instance metadata', () => {
    const text = readFileSync(bundle, 'utf8');
    for (const marker of [
      'AssumeRoleWithWebIdentity',
      'GetRoleCredentials',
      'sso-oidc',
      'credential_process',
      'AWS_CONTAINER_CREDENTIALS_FULL_URI',
    ]) {
      expect(text, marker).not.toContain(marker);
    }
    // The providers of the aliased module are there instead.
    expect(text).toContain('AWS_SESSION_TOKEN');
  });

  it("signs the secret's read with the environment's credentials", async () => {
    const headers = await firstRequestHeaders({
      AWS_ACCESS_KEY_ID: 'AKIDENVONLY',
      AWS_SECRET_ACCESS_KEY: 'secret',
      AWS_SESSION_TOKEN: 'session-token-from-env',
    });
    expect(headers['x-amz-target']).toBe('secretsmanager.GetSecretValue');
    expect(headers.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIDENVONLY\/\d{8}\/ap-south-1\/secretsmanager\//,
    );
    expect(headers['x-amz-security-token']).toBe('session-token-from-env');
  }, 30_000);
});
