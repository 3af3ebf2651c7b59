/**
 * What the stack says of each function of the manifest (functions/manifest/) that the manifest does not: where it is
 * built (its scope: the stack, the `Session` construct or the `Events` construct), its description and its role's,
 * its Errors alarm, and its integrations' construct ids. The ids and texts are those the deployed stacks already
 * have, so the logical ids and the template stay as they were. test/infra/manifest.test.ts checks that every
 * function of the manifest has its notes.
 */
import { NOTIFICATION_SOURCE } from '../../functions/events/notification.js';
import type { FunctionEntry, Route } from '../../functions/manifest/index.js';

/** The construct a function is built in: the stack itself, `Session` (SessionFunctions) or `Events` (LifecycleEvents). */
export type FunctionHome = 'stack' | 'session' | 'events';

export interface FunctionNotes {
  home: FunctionHome;
  /** Default `gtt-gateway: <summary>`. */
  description?: (entry: FunctionEntry) => string;
  roleDescription: (entry: FunctionEntry) => string;
  /** Its Errors alarm (`<name>Errors`, beside the function); absent: none. */
  errors?: (entry: FunctionEntry) => { description: string; threshold: number };
}

const SESSION: FunctionNotes = {
  home: 'session',
  roleDescription: ({ name, grants }) => {
    const has = (grant: (typeof grants)[number]) => grants.includes(grant);
    const credentials = has('oauthAppSecret:read') || has('loginSecret:read');
    return `gtt-gateway ${name}: its log group, ${has('sessionSecret:write') ? 'read and write' : 'read'} the session secret${credentials ? ', read its own credentials' : ''}${has('oauthStateTable') ? ', the OAuth state table' : ''}`;
  },
  errors: ({ name }) => ({
    description: `${name}: function errors (a failed login or an unreadable secret)`,
    threshold: 1,
  }),
};

const OPERATION: FunctionNotes = {
  home: 'stack',
  description: ({ summary, routes: [route] }) => `gtt-gateway: ${summary} (${route!.method} ${route!.path})`,
  roleDescription: ({ name, operation }) =>
    `gtt-gateway ${name}: its log group, its secret${operation!.broker === 'Logout' ? ' (read, and mark it logged out)' : ''}${operation!.idempotency ? ', the idempotency table' : ''}${operation!.lifecycle ? " (its events' outbox too)" : ''}${operation!.kind === 'order' ? ', the control table (order-rate governor, order leases)' : ''}${operation!.broker === 'Logout' ? ", the control table (the session's end)" : ''}${operation!.guardedOrders ? ", the instruments' copy (read, and write what it read from the broker)" : ''}`,
  errors: ({ name }) => ({
    description: `${name}: function errors (unhandled failures and direct-invocation errors)`,
    threshold: 1,
  }),
};

const NOTES: Record<string, FunctionNotes> = {
  KillSwitch: {
    home: 'stack',
    roleDescription: () =>
      'gtt-gateway KillSwitch: its log group, its secret, the control table (turn the switch, governor permits), the outbox items of its cancels in the idempotency table, publish Kill Switch on the gateway bus',
    errors: () => ({
      description: 'KillSwitch: function errors (the switch could not be turned, or the sweep failed)',
      threshold: 1,
    }),
  },
  EventsHistory: {
    home: 'stack',
    roleDescription: () => 'gtt-gateway EventsHistory: its log group, Query the events table (read only)',
    errors: () => ({
      description: 'EventsHistory: function errors (the events table could not be read)',
      threshold: 3,
    }),
  },
  Plans: {
    home: 'stack',
    roleDescription: () =>
      "gtt-gateway Plans: its log group, its secret, the idempotency and control tables (order actions, the plan events outbox), the instruments' copy, the plan records in the events table, publish on the gateway bus",
    errors: () => ({
      description: 'Plans: function errors (a plan could not be created, read or cancelled)',
      threshold: 1,
    }),
  },
  Strategies: {
    home: 'stack',
    roleDescription: () =>
      'gtt-gateway Strategies: its log group, the strategies and their token items in the events table',
    errors: () => ({
      description: 'Strategies: function errors (the events table could not be read or written)',
      threshold: 3,
    }),
  },
  SignalWebhook: {
    home: 'stack',
    roleDescription: () =>
      'gtt-gateway SignalWebhook: its log group, token look-ups, signals, rate and duplicate items in the events table, the outbox items of its events, send to the signal queue',
    errors: () => ({
      description: 'SignalWebhook: function errors (a signal could not be recorded or queued)',
      threshold: 1,
    }),
  },
  SignalWorker: {
    home: 'stack',
    roleDescription: () =>
      "gtt-gateway SignalWorker: its log group, its secret, the idempotency and control tables (order actions, the kill switch, the signal events outbox), the instruments' copy, plans and signals in the events table (a Query of the pending ones: its sweep), publish on the gateway bus; consume the signal queue",
    errors: () => ({
      description:
        'SignalWorker: function errors (its sweep gave up on a signal pending 15 minutes, or a run failed outright); docs/signals.md',
      threshold: 1,
    }),
  },
  InstrumentRefresh: {
    home: 'stack',
    roleDescription: () =>
      "gtt-gateway InstrumentRefresh: its log group, read the session secret, write the instruments' copy (the masters' rows, the symbols in use), Query the events table (live plans, read only)",
    errors: () => ({
      description:
        'InstrumentRefresh: failed runs (the copy or the broker unreachable); the order path reads the broker once per symbol that day instead',
      threshold: 1,
    }),
  },
  OAuthCallback: SESSION,
  SessionRenewal: SESSION,
  SessionHealth: SESSION,
  SessionLogout: SESSION,
  GttWatcher: {
    home: 'events',
    description: () =>
      'gtt-gateway: GttWatcher, publishes GTT changes seen at the broker (pending list, triggered history)',
    roleDescription: () =>
      "gtt-gateway GttWatcher: its log group, read the session secret, publish on the gateway bus, the events table, the instruments' copy (the plans' orders)",
    errors: () => ({
      description:
        'GttWatcher: failed runs (broker unreachable, events refused); its state stays and the next run retries',
      threshold: 3,
    }),
  },
  EventForwarder: {
    home: 'events',
    description: () => "gtt-gateway: EventForwarder, publishes the order functions' lifecycle events from the outbox",
    roleDescription: () =>
      "gtt-gateway EventForwarder: its log group, the idempotency table's stream, publish on the gateway bus, the events table",
    errors: () => ({
      description:
        'EventForwarder: failed batches (EventBridge or the events table unreachable); the records are delivered again',
      threshold: 3,
    }),
  },
  // Its description names the chat format (infra/constructs/webhook.ts); a failed message goes to the webhook's
  // dead-letter queue, whose alarm fires, so it has no Errors alarm of its own.
  NotifyFormatter: {
    home: 'events',
    roleDescription: () =>
      `gtt-gateway NotifyFormatter: its log group, put events of source ${NOTIFICATION_SOURCE} (only) on the gateway bus`,
  },
};

/** The notes of a function of the manifest; a function without notes fails the synth. */
export const notesOf = (entry: FunctionEntry): FunctionNotes => {
  const notes = entry.operation ? OPERATION : NOTES[entry.name];
  if (!notes) throw new Error(`${entry.name} has no notes in infra/constructs/function-notes.ts`);
  return notes;
};

/**
 * The construct id of a route's integration (part of the logical ids of the route's integration and permission):
 * an operation's is `<name>Integration`, a session function's names the path's last segment
 * (`OAuthCallbackcallbackIntegration`), any other's the method and, with a path parameter, `One`
 * (`PlansGETOneIntegration`).
 */
export const integrationIdOf = (entry: FunctionEntry, route: Route): string => {
  if (entry.operation) return `${entry.name}Integration`;
  if (notesOf(entry).home === 'session') return `${entry.name}${route.path.split('/').pop()}Integration`;
  return `${entry.name}${route.method}${Object.keys(route.pathParams).length ? 'One' : ''}Integration`;
};
