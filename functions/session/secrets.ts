/**
 * The secrets of the session functions, read and written with the gateway's Secrets Manager client
 * (base/aws/secrets-manager.ts). A secret's text is never echoed in an error (it holds a token, a password or a
 * seed); only field names and rules are.
 */
import type * as z from 'zod';

import { type SecretsManager, secretsManagerClient } from '../base/aws/secrets-manager.js';
import { ConfigurationError } from '../base/contract/errors.js';
import type { BrokerSession } from '../base/schemas/session.js';

export const secretsClient = (endpoint?: string): SecretsManager => secretsManagerClient(endpoint);

const sdkMessage = (error: unknown): string =>
  error instanceof Error ? `${error.name}: ${error.message}` : String(error);

export const readJsonSecret = async <T>(
  client: SecretsManager,
  secretId: string,
  schema: z.ZodType<T>,
  shape: string,
): Promise<T> => {
  let text: string | undefined;
  try {
    text = (await client.getSecretValue({ SecretId: secretId })).SecretString;
  } catch (error) {
    throw new ConfigurationError(`Could not read the secret "${secretId}": ${sdkMessage(error)}`, { cause: error });
  }
  if (text === undefined) throw new ConfigurationError(`The secret "${secretId}" must be a JSON string, not binary`);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ConfigurationError(`The secret "${secretId}" is not valid JSON`);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    // Field names and rules only: never the secret's values.
    const problems = parsed.error.issues.map((i) => ({ field: i.path.join('.') || '(root)', message: i.message }));
    throw new ConfigurationError(
      `The secret "${secretId}" must be JSON ${shape}: ${problems.map((p) => `${p.field}: ${p.message}`).join('; ')}`,
      {
        details: problems,
      },
    );
  }
  return parsed.data;
};

/** A new version of the session secret; running functions pick it up through their rotated-token retry. */
/** Returns the new version's id (the stable id of its `Session Renewed` event). */
export const writeSession = async (
  client: SecretsManager,
  secretId: string,
  session: BrokerSession,
): Promise<string> => {
  try {
    const reply = await client.putSecretValue({ SecretId: secretId, SecretString: JSON.stringify(session) });
    return reply.VersionId ?? `${secretId}@${Date.now()}`;
  } catch (error) {
    throw new ConfigurationError(`Could not write the session secret "${secretId}": ${sdkMessage(error)}`, {
      cause: error,
    });
  }
};
