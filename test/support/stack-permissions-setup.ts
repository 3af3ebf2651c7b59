/**
 * vitest global setup: the synthesized stacks' permissions (local/permissions/stack-policies.ts) made once before the
 * workers start, so no test's hook waits for a synthesis (about 20 s of CPU when infra/ or functions/ changed since
 * the last run; nothing when the cached file is current).
 */
import { stackPolicies } from '../../local/permissions/stack-policies.js';

export default async function setup(): Promise<void> {
  await stackPolicies();
}
