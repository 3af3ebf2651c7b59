/**
 * The console's users (docs/reference/console.md#deployed): `console-user add|remove <email>` and `console-users`, on the
 * deployed stack's user pool (`--user-pool-id`, the stack's ConsoleUserPoolId output), with the AWS credentials
 * of the default chain. They call Cognito, not the gateway's API.
 */
import {
  addConsoleUser,
  type ConsoleUsersOptions,
  listConsoleUsers,
  regionOfUserPool,
  removeConsoleUser,
} from '../../console-users.js';
import { GttGatewayError } from '../../errors.js';
import { command, may, needs } from '../command.js';
import type { Flags } from '../flags.js';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const poolOptions = (f: Flags): Omit<ConsoleUsersOptions, 'signal'> => {
  const userPoolId = f.need('user-pool-id');
  if (userPoolId && !regionOfUserPool(userPoolId))
    f.problem(`--user-pool-id must be a user pool id such as ap-south-1_AbC123 (the stack's ConsoleUserPoolId output)`);
  const endpointUrl = f.str('endpoint-url');
  if (endpointUrl !== undefined && !URL.canParse(endpointUrl)) f.problem('--endpoint-url must be a URL');
  return { userPoolId, ...(endpointUrl ? { endpointUrl } : {}) };
};

/** The user pool's refusal as the CLI's error (exit code by its HTTP status). */
const refused = (error: unknown): never => {
  if (error instanceof GttGatewayError) throw error;
  const status = (error as { status?: number }).status;
  throw new GttGatewayError({
    code: status ? 'HTTP_ERROR' : 'NETWORK_ERROR',
    ...(status ? { status } : {}),
    operation: 'console-user',
    message: `console-user: ${(error as Error).message}`,
    cause: error,
  });
};

const POOL_FLAGS = [needs('user-pool-id', 'ID'), may('endpoint-url', 'URL')];

export const consoleUser = command({
  name: 'console-user',
  args: ['add|remove', 'email'],
  flags: POOL_FLAGS,
  summary:
    "add: a user of the deployed console (Cognito emails a temporary password; the first sign-in sets a new one and an authenticator app); remove: delete one. --user-pool-id is the stack's ConsoleUserPoolId output",
  input: (f, args) => {
    const action = args[0] ?? '';
    if (action !== 'add' && action !== 'remove')
      f.problem(`console-user takes add or remove, got ${JSON.stringify(action)}`);
    const email = args[1] ?? '';
    if (!EMAIL.test(email)) f.problem(`<email> must be an email address, got ${JSON.stringify(email)}`);
    return { action, email, options: poolOptions(f) };
  },
  run: async ({ signal }, { action, email, options }) => {
    const pool = { ...options, ...(signal ? { signal } : {}) };
    try {
      if (action === 'remove') {
        await removeConsoleUser(pool, email);
        return { action, email };
      }
      return { action, ...(await addConsoleUser(pool, email)) };
    } catch (error) {
      return refused(error);
    }
  },
  render: (r) =>
    r.action === 'remove'
      ? `removed ${r.email}: the console no longer signs them in`
      : `added ${r.email} (${'status' in r ? r.status : 'FORCE_CHANGE_PASSWORD'}): Cognito emails a temporary password (valid 3 days) and the console's URL; the first sign-in sets a new password and an authenticator app (TOTP)`,
});

export const consoleUsers = command({
  name: 'console-users',
  flags: POOL_FLAGS,
  summary: "the deployed console's users, one line each: email, status, enabled, created",
  input: (f) => poolOptions(f),
  run: async ({ signal }, options) => {
    try {
      return { users: await listConsoleUsers({ ...options, ...(signal ? { signal } : {}) }) };
    } catch (error) {
      return refused(error);
    }
  },
  render: (r) =>
    r.users.length
      ? r.users
          .map((u) => [u.email, u.status, u.enabled ? 'enabled' : 'disabled', u.created ?? ''].join('  ').trim())
          .join('\n')
      : 'no console users',
});
