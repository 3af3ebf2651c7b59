/**
 * The console's users (docs/reference/console.md#deployed): the deployed stack's Cognito user pool managed with its JSON API
 * (AdminCreateUser, ListUsers, AdminDeleteUser), SigV4-signed with aws4fetch (service `cognito-idp`) and the AWS
 * SDK's default credentials: no Cognito SDK package. The pool's id is the stack's `ConsoleUserPoolId` output.
 */
import { type AwsCredentials, type CredentialsProvider, defaultCredentials } from './signing.js';

/** `ap-south-1_AbC123` -> `ap-south-1`. */
export const regionOfUserPool = (userPoolId: string): string | undefined =>
  /^([a-z]{2}(?:-[a-z]+)+-\d)_[0-9A-Za-z]+$/.exec(userPoolId)?.[1];

export interface ConsoleUsersOptions {
  userPoolId: string;
  /** Default `https://cognito-idp.<region>.amazonaws.com/`. */
  endpointUrl?: string;
  credentials?: CredentialsProvider;
  signal?: AbortSignal;
}

export interface ConsoleUser {
  email: string;
  /** FORCE_CHANGE_PASSWORD until the first sign-in, then CONFIRMED. */
  status: string;
  enabled: boolean;
  created?: string;
}

/** A refusal of the user pool's API: its exception's name (`UsernameExistsException`) and message. */
export class ConsoleUsersError extends Error {
  override readonly name = 'ConsoleUsersError';
  constructor(
    readonly type: string,
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

type Target = 'AdminCreateUser' | 'ListUsers' | 'AdminDeleteUser';

const call = async (
  options: ConsoleUsersOptions,
  target: Target,
  body: Record<string, unknown>,
): Promise<Record<string, unknown>> => {
  const region = regionOfUserPool(options.userPoolId);
  if (!region) throw new ConsoleUsersError('InvalidParameterException', `not a user pool id: ${options.userPoolId}`, 0);
  const url = options.endpointUrl ?? `https://cognito-idp.${region}.amazonaws.com/`;
  const credentials: AwsCredentials = await (options.credentials ?? defaultCredentials)();
  const { AwsV4Signer } = await import('aws4fetch');
  const signed = await new AwsV4Signer({
    url,
    method: 'POST',
    headers: {
      'content-type': 'application/x-amz-json-1.1',
      'x-amz-target': `AWSCognitoIdentityProviderService.${target}`,
    },
    body: JSON.stringify({ UserPoolId: options.userPoolId, ...body }),
    accessKeyId: credentials.accessKeyId,
    secretAccessKey: credentials.secretAccessKey,
    ...(credentials.sessionToken ? { sessionToken: credentials.sessionToken } : {}),
    service: 'cognito-idp',
    region,
  }).sign();
  const response = await fetch(signed.url, {
    method: signed.method,
    headers: signed.headers,
    body: signed.body ?? null,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const answer = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  if (!response.ok) {
    const type = String(answer.__type ?? `HTTP ${response.status}`)
      .split('#')
      .pop()!;
    const message = String(answer.message ?? answer.Message ?? '');
    throw new ConsoleUsersError(type, `${target}: ${type}${message ? `: ${message}` : ''}`, response.status);
  }
  return answer;
};

interface UserRecord {
  Username?: string;
  Attributes?: { Name: string; Value: string }[];
  UserStatus?: string;
  Enabled?: boolean;
  UserCreateDate?: number;
}

const userOf = (record: UserRecord): ConsoleUser => ({
  email: record.Attributes?.find((a) => a.Name === 'email')?.Value ?? record.Username ?? '',
  status: record.UserStatus ?? 'UNKNOWN',
  enabled: record.Enabled !== false,
  ...(typeof record.UserCreateDate === 'number'
    ? { created: new Date(record.UserCreateDate * 1000).toISOString() }
    : {}),
});

/** Creates the user; Cognito emails a temporary password (valid 3 days) and the console's URL. */
export const addConsoleUser = async (options: ConsoleUsersOptions, email: string): Promise<ConsoleUser> => {
  const answer = await call(options, 'AdminCreateUser', {
    Username: email,
    UserAttributes: [
      { Name: 'email', Value: email },
      { Name: 'email_verified', Value: 'true' },
    ],
    DesiredDeliveryMediums: ['EMAIL'],
  });
  return userOf((answer.User ?? {}) as UserRecord);
};

/** Every user of the pool (ListUsers, page after page). */
export const listConsoleUsers = async (options: ConsoleUsersOptions): Promise<ConsoleUser[]> => {
  const users: ConsoleUser[] = [];
  let token: string | undefined;
  do {
    const answer = await call(options, 'ListUsers', { Limit: 60, ...(token ? { PaginationToken: token } : {}) });
    users.push(...((answer.Users ?? []) as UserRecord[]).map(userOf));
    token = typeof answer.PaginationToken === 'string' ? answer.PaginationToken : undefined;
  } while (token);
  return users;
};

export const removeConsoleUser = async (options: ConsoleUsersOptions, email: string): Promise<void> => {
  await call(options, 'AdminDeleteUser', { Username: email });
};
