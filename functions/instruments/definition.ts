/** The InstrumentRefresh's definition (instrument-refresh.ts, docs/explanation/exchange-rules.md): scheduled before the market opens. */
import type { FunctionDefinition } from '../base/definition/types.js';
import { createInstrumentRefresh } from './instrument-refresh.js';

/** 08:30 India time on weekdays: the day's symbol masters are out, and the pre-open session starts at 09:00. */
export const INSTRUMENT_REFRESH_SCHEDULE = 'cron(30 8 ? * MON-FRI *)';

export const INSTRUMENT_REFRESH: FunctionDefinition = {
  name: 'InstrumentRefresh',
  id: 'instrument-refresh',
  summary:
    "InstrumentRefresh: loads the day's symbol masters and the band and freeze of the symbols in use into the account's copy",
  routes: [],
  trigger: {
    kind: 'schedule',
    cron: INSTRUMENT_REFRESH_SCHEDULE,
    description: "InstrumentRefresh, the day's instrument rules before the market opens",
    retry: 'none',
  },
  direct: { example: {} },
  env: {
    // Where the masters are and which exchanges: the deployment's settings (SYMBOL_MASTER_URL, _EXCHANGES).
    keys: ['brokerBaseUrl', 'brokerSecretId', 'brokerAuth', 'instrumentsTableName', 'eventsTableName'],
    deploymentSettings: true,
  },
  // The live plans' symbols: a Query of the plans, nothing else of the events table.
  grants: ['sessionSecret:read', 'instrumentsTable:refresh', 'eventsTable:planList'],
  notes: {
    home: 'stack',
    roleDescription:
      "gtt-gateway InstrumentRefresh: its log group, read the session secret, write the instruments' copy (the masters' rows, the symbols in use), Query the events table (live plans, read only)",
  },
  alarms: {
    errors: {
      description:
        'InstrumentRefresh: failed runs (the copy or the broker unreachable); the order path reads the broker once per symbol that day instead',
      threshold: 1,
    },
  },
  bundle: {
    // A real NFO master is about 10 MB of text and 80,000 rows held at once.
    memory: 'standard',
    timeoutSeconds: 300,
    handler: { kind: 'factory', from: '../instruments/instrument-refresh.js' },
  },
  create: createInstrumentRefresh,
};
