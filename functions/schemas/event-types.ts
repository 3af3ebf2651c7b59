/**
 * The names of the lifecycle events, apart from their zod schemas (events.ts) so the functions that publish carry
 * the names without building the schemas at start-up.
 */
export const EVENT_SOURCE = 'gtt-gateway';

export const ORDER_DETAIL_TYPES = ['GTT Placed', 'GTT Modified', 'GTT Cancelled', 'GTT Triggered', 'GTT Removed'] as const;
export const SESSION_DETAIL_TYPES = ['Session Expired', 'Session Renewed'] as const;
export const CONTROL_DETAIL_TYPES = ['Kill Switch'] as const;
export const DETAIL_TYPES = [...ORDER_DETAIL_TYPES, ...SESSION_DETAIL_TYPES, ...CONTROL_DETAIL_TYPES] as const;
export type OrderDetailType = (typeof ORDER_DETAIL_TYPES)[number];
export type DetailType = (typeof DETAIL_TYPES)[number];
