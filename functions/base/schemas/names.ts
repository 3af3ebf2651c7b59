/**
 * The names the function set shows the outside: its service name (log lines, metric dimension `service`), its
 * CloudWatch metric namespace, the `source` of its events and its version (the OpenAPI document's; a test holds it
 * equal to package.json's and the client package's). One place, so the functions, the stacks that alarm on
 * them and the docs cannot disagree.
 */
export const SERVICE_NAME = 'gtt-gateway';
export const METRIC_NAMESPACE = 'GttGateway';
export const EVENT_SOURCE = 'gtt-gateway';
export const API_VERSION = '0.2.0';
