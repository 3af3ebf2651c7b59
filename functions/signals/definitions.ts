/** The definitions of the Strategies function, the signal webhook and the signal worker (docs/reference/signals.md). */
import { ORDER_ACTOR_ENV } from '../base/definition/routes.js';
import type { FunctionDefinition } from '../base/definition/types.js';
import { SIGNAL_WEBHOOK_ROUTES, STRATEGIES_ROUTES } from './routes.js';
import { createStrategiesFunction } from './strategies.js';
import { createSignalWebhook } from './webhook.js';
import { createSignalWorker } from './worker.js';

export const STRATEGIES: FunctionDefinition = {
  ...STRATEGIES_ROUTES,
  id: 'strategies',
  summary: 'Strategies: what an alert posted to a webhook URL does; the URL and its token (shown once)',
  env: { keys: ['eventsTableName', 'signalBaseUrl'], deploymentSettings: false },
  grants: ['eventsTable:strategies'],
  notes: {
    home: 'stack',
    roleDescription: 'gtt-gateway Strategies: its log group, the strategies and their token items in the events table',
  },
  alarms: {
    errors: {
      description: 'Strategies: function errors (the events table could not be read or written)',
      threshold: 3,
    },
  },
  bundle: { memory: 'standard', handler: { kind: 'factory', from: '../signals/strategies.js' } },
  create: createStrategiesFunction,
};

export const SIGNAL_WEBHOOK: FunctionDefinition = {
  ...SIGNAL_WEBHOOK_ROUTES,
  id: 'signal-webhook',
  summary: 'The signal webhook: an alert checked, recorded and queued (202); nothing sent to the broker here',
  env: {
    keys: ['eventsTableName', 'idempotencyTableName', 'signalQueueUrl'],
    deploymentSettings: false,
  },
  grants: ['eventsTable:signals', 'idempotencyTable:outbox', 'signalQueue:send'],
  notes: {
    home: 'stack',
    roleDescription:
      'gtt-gateway SignalWebhook: its log group, token look-ups, signals, rate and duplicate items in the events table, the outbox items of its events, send to the signal queue',
  },
  alarms: {
    errors: { description: 'SignalWebhook: function errors (a signal could not be recorded or queued)', threshold: 1 },
  },
  bundle: { memory: 'order', handler: { kind: 'factory', from: '../signals/webhook.js' } },
  create: createSignalWebhook,
};

/** The signal worker's sweep: its schedule's payload, and the only direct invocation it takes. */
export const SIGNAL_SWEEP = { sweep: true } as const;

/**
 * Acts on each queued signal (functions/signals/actor-wiring.ts), off the webhook's request path; and every minute, on the
 * signals still pending two minutes after they were received (functions/signals/sweep.ts).
 */
export const SIGNAL_WORKER: FunctionDefinition = {
  name: 'SignalWorker',
  id: 'signal-worker',
  summary: 'The signal worker: acts on each queued signal as its strategy says, and records what became of it',
  routes: [],
  trigger: {
    kind: 'queue',
    queue: 'signals',
    sweep: {
      // Every minute, every day: alerts come at any hour (GTTs are placed outside market hours too).
      cron: 'cron(* * * * ? *)',
      description: 'SignalWorker, acts on the signals the queue never delivered',
      input: SIGNAL_SWEEP,
      // A missed minute is the next minute's, never sent late.
      retry: 'none',
    },
  },
  direct: { example: SIGNAL_SWEEP, fields: Object.keys(SIGNAL_SWEEP) },
  env: {
    keys: [...ORDER_ACTOR_ENV, 'instrumentsTableName', 'eventBusName', 'eventsTableName'],
    deploymentSettings: true,
  },
  grants: [
    'sessionSecret:read',
    'idempotencyTable',
    'controlTable:switch',
    'instrumentsTable:copy',
    'eventsTable:plans',
    'eventsTable:signalWorker',
    'eventsTable:signalSweep',
    'bus:publish',
  ],
  notes: {
    home: 'stack',
    roleDescription:
      "gtt-gateway SignalWorker: its log group, its secret, the idempotency and control tables (order actions, the kill switch, the signal events outbox), the instruments' copy, plans and signals in the events table (a Query of the pending ones: its sweep), publish on the gateway bus; consume the signal queue",
  },
  alarms: {
    errors: {
      description:
        'SignalWorker: function errors (its sweep gave up on a signal pending 15 minutes, or a run failed outright); docs/reference/signals.md',
      threshold: 1,
    },
  },
  bundle: { memory: 'order', timeoutSeconds: 60, handler: { kind: 'factory', from: '../signals/worker.js' } },
  audit: true,
  create: createSignalWorker,
};
