/**
 * The names the function set shows the outside: its service name (log lines, metric dimension `service`), its
 * CloudWatch metric namespace and the `source` of its events. One place, so the functions, the stacks that alarm on
 * them and the docs cannot disagree.
 */
export const SERVICE_NAME = 'gtt-gateway';
export const METRIC_NAMESPACE = 'GttGateway';
export const EVENT_SOURCE = 'gtt-gateway';
