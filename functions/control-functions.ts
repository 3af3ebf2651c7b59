/**
 * Functions of the trading controls that are not broker operations, as a table like the session functions': the
 * CDK stack, the local runner and the OpenAPI document build their routes from it.
 *
 * The kill switch is not an entry of the operation table: an entry is one broker call, while the kill switch is the
 * state of the account's controls plus a sweep that cancels every pending order through the table's own
 * CancelGTTOrder entry (so each cancel passes the governor, is audited and publishes its event like any other).
 */
import type * as z from 'zod';

import { killSwitchResult } from './schemas/controls.js';
import { eventsHistoryInput, eventsHistoryResult } from './schemas/events-history.js';
import { planInput, planList, planListInput, planRecord, planResult } from './schemas/plans.js';

export interface ControlRoute {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  operationId: string;
  summary: string;
  result: z.ZodType;
  /** `order`: cancels orders at the broker; `control`: changes only the gateway's controls; `read`: changes nothing. */
  kind: 'order' | 'control' | 'read';
  /** Safe to repeat automatically (the client's retries read this from the OpenAPI document). */
  retrySafe: boolean;
  /** The query parameters it takes (HTTP), which are also the fields of a direct invocation; none when absent. */
  query?: z.ZodObject;
  /** The JSON body it takes. */
  body?: z.ZodType;
  /** Its path parameters (`/plans/{planId}`). */
  pathParams?: readonly string[];
  /** An Idempotency-Key header it requires (a retry with the same key answers the first result). */
  idempotencyKey?: 'required';
  /** Default 200. */
  successStatus?: 200 | 201;
}

export interface ControlFunction {
  name: 'KillSwitch' | 'EventsHistory' | 'Plans';
  id: 'kill-switch' | 'events-history' | 'plans';
  summary: string;
  routes: readonly ControlRoute[];
}

export const KILL_SWITCH: ControlFunction = {
  name: 'KillSwitch',
  id: 'kill-switch',
  summary: 'Kill switch: cancel every pending GTT and OCO, then refuse places and modifies until it is turned off',
  routes: [
    {
      method: 'POST',
      path: '/kill-switch',
      operationId: 'ActivateKillSwitch',
      // Turning it on again sweeps again: nothing is cancelled twice.
      kind: 'order',
      retrySafe: true,
      summary:
        'Turn the kill switch on: from now places and modifies answer 423 TRADING_HALTED; every pending GTT and OCO is cancelled (each through the order-rate governor). Reads and cancels still work.',
      result: killSwitchResult,
    },
    {
      method: 'DELETE',
      path: '/kill-switch',
      operationId: 'ReleaseKillSwitch',
      kind: 'control',
      retrySafe: true,
      summary: 'Turn the kill switch off: places and modifies are accepted again (nothing cancelled comes back)',
      result: killSwitchResult,
    },
    {
      method: 'GET',
      path: '/kill-switch',
      operationId: 'GetKillSwitch',
      summary: 'Whether the kill switch is on, since when and by whom',
      result: killSwitchResult,
      kind: 'read',
      retrySafe: true,
    },
  ],
};

/** The account's recent lifecycle events from the events table (functions/events/history.ts). */
export const EVENTS_HISTORY: ControlFunction = {
  name: 'EventsHistory',
  id: 'events-history',
  summary: "Events history: the account's lifecycle events of the last 30 days, oldest first, paged",
  routes: [
    {
      method: 'GET',
      path: '/events',
      operationId: 'ListEvents',
      summary:
        'The lifecycle events published since a time (default: the start of today, India time), oldest first; ?type= one detail-type; paged with ?limit= and ?cursor= like the order lists. Kept 30 days.',
      result: eventsHistoryResult,
      query: eventsHistoryInput,
      kind: 'read',
      retrySafe: true,
    },
  ],
};

/** Bracket and trailing-stop plans, held by the gateway and carried out by the watcher (functions/plans/). */
export const PLANS: ControlFunction = {
  name: 'Plans',
  id: 'plans',
  summary: 'Plans: bracket (entry, then an OCO exit once filled) and trailing stop, carried out by the watcher',
  routes: [
    {
      method: 'POST',
      path: '/plans',
      operationId: 'CreatePlan',
      summary:
        'Create a plan: {"kind": "bracket", "entry": <POST /gtt-orders body>, "target": {trigger, price}, "stopLoss": {trigger, price}} or {"kind": "trailing-stop", "order": <a stop GTT>, "trailBy", "step"?}. Places its first GTT now; 201, or 200 with the same plan for a retried key.',
      result: planResult,
      body: planInput,
      idempotencyKey: 'required',
      successStatus: 201,
      kind: 'order',
      retrySafe: true,
    },
    {
      method: 'GET',
      path: '/plans',
      operationId: 'ListPlans',
      summary:
        'The plans of the account (ended ones for 30 days), a page at a time: state, broker al_ids, position, last actions',
      result: planList,
      query: planListInput,
      kind: 'read',
      retrySafe: true,
    },
    {
      method: 'GET',
      path: '/plans/{planId}',
      operationId: 'GetPlan',
      summary: 'One plan: its state, broker al_ids and history of actions',
      result: planRecord,
      pathParams: ['planId'],
      kind: 'read',
      retrySafe: true,
    },
    {
      method: 'DELETE',
      path: '/plans/{planId}',
      operationId: 'CancelPlan',
      summary: 'Cancel a plan: its live GTT is cancelled at the broker and the plan ends (cancelled)',
      result: planRecord,
      pathParams: ['planId'],
      kind: 'order',
      retrySafe: true,
    },
  ],
};

export const CONTROL_FUNCTIONS: readonly ControlFunction[] = [KILL_SWITCH, EVENTS_HISTORY, PLANS];
