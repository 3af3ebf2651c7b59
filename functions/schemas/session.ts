/**
 * The session secret one deployment acts for: `{accessToken, uid, actid, brkname?}` as JSON in Secrets Manager.
 * The token lives only there, in memory, and in the Authorization header: never in jData, a log line or a reply.
 */
import * as z from 'zod';

export const brokerSecretSchema = z.object({
  accessToken: z.string().min(1, { error: 'accessToken must be a non-empty string' }),
  uid: z.string().min(1, { error: 'uid must be a non-empty string' }),
  actid: z.string().min(1, { error: 'actid must be a non-empty string' }),
  brkname: z.string().min(1).optional(),
});

/** The session one deployment acts for. The token lives only here and in the Authorization header. */
export type BrokerSession = z.output<typeof brokerSecretSchema>;
