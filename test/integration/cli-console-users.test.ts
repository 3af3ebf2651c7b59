/**
 * `console-user add|remove <email>` and `console-users` (client/cli/commands/console-users.ts) run as the CLI
 * against a fake of Cognito's user pool API on 127.0.0.1: each call SigV4-signed for `cognito-idp` in the pool's
 * region with the default credential chain (here the environment's keys), the pool's refusal named, bad input
 * refused before anything is sent.
 */
import http from 'node:http';

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { authorizationOf, type CapturedRequest, recomputeSignature } from '../../local/permissions/sigv4.js';
import { runCli } from '../support/cli-bundle.js';

const POOL = 'ap-south-1_AbC123';
const KEYS = { AWS_ACCESS_KEY_ID: 'AKIDCONSOLE', AWS_SECRET_ACCESS_KEY: 'console-secret', AWS_SESSION_TOKEN: '' };

let server: http.Server;
let endpoint: string;
let captured: CapturedRequest[] = [];
/** The fake pool's users, by email. */
const users = new Map<string, { status: string; created: number }>();

const answer = (res: http.ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/x-amz-json-1.1' });
  res.end(JSON.stringify(body));
};
const record = (email: string) => ({
  Username: `uuid-${email}`,
  Attributes: [{ Name: 'email', Value: email }],
  UserStatus: users.get(email)!.status,
  Enabled: true,
  UserCreateDate: users.get(email)!.created,
});

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      captured.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      const input = JSON.parse(body) as { UserPoolId: string; Username?: string; PaginationToken?: string };
      if (input.UserPoolId !== POOL) return answer(res, 400, { __type: 'ResourceNotFoundException', message: 'pool' });
      const target = String(req.headers['x-amz-target']);
      if (target === 'AWSCognitoIdentityProviderService.AdminCreateUser') {
        if (users.has(input.Username!))
          return answer(res, 400, {
            __type: 'UsernameExistsException',
            message: 'An account with the given email already exists.',
          });
        users.set(input.Username!, { status: 'FORCE_CHANGE_PASSWORD', created: 1_796_000_000 + users.size });
        return answer(res, 200, { User: record(input.Username!) });
      }
      if (target === 'AWSCognitoIdentityProviderService.ListUsers') {
        // Two pages: one user each, to see the paging followed.
        const emails = [...users.keys()];
        const page = input.PaginationToken ? emails.slice(1) : emails.slice(0, 1);
        return answer(res, 200, {
          Users: page.map(record),
          ...(!input.PaginationToken && emails.length > 1 ? { PaginationToken: 'page-2' } : {}),
        });
      }
      if (target === 'AWSCognitoIdentityProviderService.AdminDeleteUser') {
        if (!users.delete(input.Username!))
          return answer(res, 400, { __type: 'UserNotFoundException', message: 'User does not exist.' });
        return answer(res, 200, {});
      }
      return answer(res, 400, { __type: 'UnknownOperationException' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(server.address() as { port: number }).port}/`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  captured = [];
});

const gtt = (...args: string[]) => runCli([...args, '--user-pool-id', POOL, '--endpoint-url', endpoint], KEYS);

describe('console-user', () => {
  it('add: AdminCreateUser with the email verified and an emailed invitation, signed for cognito-idp', async () => {
    const run = await gtt('console-user', 'add', 'trader@example.com');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('added trader@example.com (FORCE_CHANGE_PASSWORD)');
    expect(run.stdout).toContain('authenticator app');
    const [request] = captured;
    expect(request!.headers['x-amz-target']).toBe('AWSCognitoIdentityProviderService.AdminCreateUser');
    expect(JSON.parse(request!.body)).toEqual({
      UserPoolId: POOL,
      Username: 'trader@example.com',
      UserAttributes: [
        { Name: 'email', Value: 'trader@example.com' },
        { Name: 'email_verified', Value: 'true' },
      ],
      DesiredDeliveryMediums: ['EMAIL'],
    });
    const auth = authorizationOf(request!);
    expect(auth).toMatchObject({ accessKeyId: 'AKIDCONSOLE', region: 'ap-south-1', service: 'cognito-idp' });
    expect(auth.signedHeaders).toContain('x-amz-target');
    expect(
      await recomputeSignature(request!, {
        accessKeyId: KEYS.AWS_ACCESS_KEY_ID,
        secretAccessKey: KEYS.AWS_SECRET_ACCESS_KEY,
      }),
    ).toBe(auth.signature);
  });

  it('add again: the pool refuses, and the CLI names why and fails', async () => {
    const run = await gtt('console-user', 'add', 'trader@example.com');
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('UsernameExistsException');
  });

  it('console-users: every user, page after page', async () => {
    await gtt('console-user', 'add', 'second@example.com');
    captured = [];
    const run = await gtt('console-users');
    expect(run.code).toBe(0);
    const lines = run.stdout.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^trader@example\.com {2}FORCE_CHANGE_PASSWORD {2}enabled {2}2026-\d\d-\d\dT/);
    expect(lines[1]).toMatch(/^second@example\.com /);
    expect(
      captured.map((r) => JSON.parse(r.body) as { PaginationToken?: string }).map((b) => b.PaginationToken),
    ).toEqual([undefined, 'page-2']);
  });

  it('remove: AdminDeleteUser; an unknown user is named', async () => {
    const run = await gtt('console-user', 'remove', 'second@example.com');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('removed second@example.com');
    expect(captured[0]!.headers['x-amz-target']).toBe('AWSCognitoIdentityProviderService.AdminDeleteUser');
    const again = await gtt('console-user', 'remove', 'second@example.com');
    expect(again.code).not.toBe(0);
    expect(again.stderr).toContain('UserNotFoundException');
  });

  it('refuses a bad action, email or pool id before anything is sent (exit 2)', async () => {
    for (const args of [
      ['console-user', 'invite', 'trader@example.com'],
      ['console-user', 'add', 'not-an-email'],
    ]) {
      const run = await gtt(...args);
      expect(run.code, args.join(' ')).toBe(2);
    }
    const noPool = await runCli(['console-users', '--user-pool-id', 'nope', '--endpoint-url', endpoint], KEYS);
    expect(noPool.code).toBe(2);
    expect(noPool.stderr).toContain('--user-pool-id must be a user pool id');
    expect(captured).toEqual([]);
  });
});
