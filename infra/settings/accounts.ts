/**
 * One stack per broker account (docs/how-to/several-accounts.md): `-c account=<name>` names a deployment of its own,
 * `GttGatewayStack-<name>` (and `GttGatewayWorkflowExampleStack-<name>`), so two accounts deploy side by side in one
 * AWS account and region. Everything stateful is per stack already (tables, secrets, bus, dashboard, NAT instances
 * and their Elastic IPs, exports named after the stack); the metrics get a namespace of their own,
 * `GttGateway/<name>`, so one account's dashboard and alarms never count the other's calls. Without `account` the
 * names stay what they were.
 */
import { METRIC_NAMESPACE } from '../../functions/base/schemas/names.js';

/** Lower-case letters, digits and hyphens, a letter first, at most 24: part of stack, export and dashboard names. */
export const ACCOUNT_NAME = /^[a-z][a-z0-9-]{0,23}$/;
export const ACCOUNT_NAME_RULE =
  'a short lower-case name for the broker account (letters, digits and hyphens, a letter first, at most 24), e.g. alice';

export const GATEWAY_STACK = 'GttGatewayStack';
export const WORKFLOW_EXAMPLE_STACK = 'GttGatewayWorkflowExampleStack';

const suffix = (account: string | undefined) => (account ? `-${account}` : '');

export const gatewayStackName = (account?: string): string => `${GATEWAY_STACK}${suffix(account)}`;
export const workflowExampleStackName = (account?: string): string => `${WORKFLOW_EXAMPLE_STACK}${suffix(account)}`;
export const metricNamespaceOf = (account?: string): string =>
  account ? `${METRIC_NAMESPACE}/${account}` : METRIC_NAMESPACE;

/** The account of a construct's app (`-c account=`), checked at synth by context.ts. */
export const accountOf = (context: unknown): string | undefined =>
  context === undefined || context === null || context === '' ? undefined : String(context);
