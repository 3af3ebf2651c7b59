/**
 * Deployment configuration from the environment, read once per container and validated, so a misconfigured
 * deployment answers CONFIGURATION_ERROR naming the variable instead of failing somewhere deeper.
 */
import { z } from 'zod';
import { ConfigurationError } from './errors.js';

const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' });

export const gatewayConfigSchema = z.object({
  /** Base address of the broker service; requests go to `{base}/ClientAPI/<Operation>`. */
  BROKER_BASE_URL: httpUrl,
  /** Name or ARN of the Secrets Manager secret holding `{accessToken, uid, actid, brkname?}`. */
  BROKER_SECRET_ID: z.string().min(1, { error: 'must name the broker session secret' }),
  /** Per-request timeout towards the broker; keep it below the Lambda timeout. */
  BROKER_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(8_000),
  /** How long a fetched secret is reused by a warm container before it is read again. */
  SECRET_MAX_AGE_SECONDS: z.coerce.number().int().min(1).max(86_400).default(300),
  /** Local runs and tests only: where the Secrets Manager client sends its calls. */
  SECRETS_MANAGER_ENDPOINT: httpUrl.optional(),
});

export type GatewayConfig = z.output<typeof gatewayConfigSchema>;

export const parseGatewayConfig = (env: Record<string, string | undefined>): GatewayConfig => {
  const parsed = gatewayConfigSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`);
    throw new ConfigurationError(`Invalid gateway configuration: ${problems.join('; ')}`, { details: problems });
  }
  return parsed.data;
};
