/**
 * What the system model drives (system-model.ts), against every way into the function set the manifest offers:
 * test/unit/system-coverage.test.ts fails when a route, a function started otherwise, or an MCP tool has no command
 * that drives it and no decision here saying why not, and when a command kind has no entry here. So the next
 * operation is covered (or knowingly not) the day it is added.
 *
 * A way is `METHOD /path` (a route of FUNCTIONS), `run <Function>` (a function with a schedule, a queue, a stream or
 * a rule: its trigger), `invoke <Function>` (a function's direct invocation: its payload, in-process as the signal
 * worker calls the operation table, or as its schedule sends it at `/_local/run/<Function>`), or `mcp <tool>` (a
 * tool of POST /mcp).
 * COVERS: each command kind (its `Command.kind`) and the ways it drives, through the local API, a webhook, a direct
 * invocation of the real handler, or /mcp (a tool's call then reaches its route with the function's own role).
 * NOT_DRIVEN: the ways no command drives, each with the reason.
 */
import { FUNCTIONS, ROUTES } from '../../functions/manifest/index.js';
import { READ_TOOL_NAMES } from '../../mcp/read-tools.js';
import { WRITE_TOOL_NAMES } from '../../mcp/write-tools.js';
import { READS, SCHEDULED } from './system-reads.js';

const WRITES = ['POST /gtt-orders', 'POST /gtt-orders/oco', 'PUT /gtt-orders/{alId}', 'PATCH /gtt-orders/{alId}'];
const ALERT = ['POST /signals/{id}', 'run SignalWorker', 'POST /strategies', 'invoke PlaceGTTOrder'];

export const COVERS: Readonly<Record<string, readonly string[]>> = {
  // system-commands.ts (an order write's completed journal record is what the EventForwarder's stream carries)
  place: ['POST /gtt-orders', 'run EventForwarder'],
  'place OCO': ['POST /gtt-orders/oco', 'run EventForwarder'],
  'repeat key': ['POST /gtt-orders', 'POST /gtt-orders/oco'],
  'modify (PUT)': ['PUT /gtt-orders/{alId}'],
  PATCH: ['PATCH /gtt-orders/{alId}'],
  'PATCH If-Match': ['GET /gtt-orders/{alId}', 'PATCH /gtt-orders/{alId}'],
  'two PATCHes at once': ['GET /gtt-orders/{alId}', 'PATCH /gtt-orders/{alId}'],
  cancel: ['DELETE /gtt-orders/{alId}'],
  'retry open outcome': [...WRITES, 'DELETE /gtt-orders/{alId}'],
  // The real PlaceGTTOrder handler invoked in-process with a short deadline (its route's event).
  'killed order function': ['POST /gtt-orders'],
  // system-changes.ts
  'modify OCO (PUT)': ['PUT /gtt-orders/oco/{alId}', 'GET /gtt-orders/{alId}'],
  'PATCH OCO': ['PATCH /gtt-orders/oco/{alId}', 'GET /gtt-orders/{alId}'],
  'change of an unknown place': [
    'POST /gtt-orders',
    'POST /gtt-orders/oco',
    'GET /gtt-orders',
    'GET /gtt-orders/{alId}',
    'PUT /gtt-orders/{alId}',
    'PATCH /gtt-orders/{alId}',
    'PUT /gtt-orders/oco/{alId}',
    'PATCH /gtt-orders/oco/{alId}',
  ],
  'change key again in flight': ['GET /gtt-orders/{alId}', 'PATCH /gtt-orders/{alId}', 'PATCH /gtt-orders/oco/{alId}'],
  // system-halts.ts
  'keep-exits during a change': ['POST /kill-switch', 'PATCH /gtt-orders/oco/{alId}', 'POST /plans', 'run GttWatcher'],
  "edit of a plan's order": [
    'POST /plans',
    'PUT /gtt-orders/{alId}',
    'PATCH /gtt-orders/{alId}',
    'PATCH /gtt-orders/oco/{alId}',
    'DELETE /gtt-orders/{alId}',
  ],
  read: ['GET /gtt-orders', 'GET /gtt-orders/triggered', 'GET /quotes', 'GET /gtt-orders/{alId}'],
  // system-protect.ts: coverage and autoCover switched, a watcher run, the coverage read.
  coverage: ['PUT /positions/coverage', 'GET /positions/coverage', 'run GttWatcher'],
  // system-close.ts: a position closed now, its key sent once or twice.
  'close position': ['POST /positions/close'],
  'mcp close position': ['POST /mcp', 'POST /assistants', 'mcp close_position', 'mcp confirm', 'POST /positions/close'],
  // system-cover-gap.ts: a bracket whose exit place may be lost, with autoCover on.
  'coverage owed exit': ['POST /plans', 'PUT /positions/coverage', 'run GttWatcher'],
  // system-actors.ts
  'signal alert': ALERT,
  'duplicate alert': ['POST /signals/{id}'],
  'queue redelivery': ['run SignalWorker'],
  'killed signal worker': ALERT,
  plan: ['POST /plans'],
  'watcher run': ['run GttWatcher', 'invoke GttWatcher'],
  'killed watcher run': ['run GttWatcher', 'invoke GttWatcher'],
  'kill switch': ['POST /kill-switch', 'DELETE /kill-switch', 'POST /gtt-orders'],
  // system-risk.ts: the limit set, the watcher's check turning the switch.
  'risk limit': ['PUT /risk', 'GET /kill-switch', 'run GttWatcher'],
  logout: ['POST /session/logout', 'run SessionLogout'],
  login: ['GET /session/oauth/start', 'GET /session/oauth/callback'],
  // The broker's own side (the emulator's control surface): no way into the gateway.
  'market move': [],
  fill: [],
  'outside order': [],
  // system-signals.ts
  // The signal worker's actor calls the operation table in-process (a place, an OCO, the pending list and cancels).
  'signal of any kind': [
    ...ALERT,
    'GET /signals/{id}',
    'invoke PlaceOCOOrder',
    'invoke GetPendingGTTOrder',
    'invoke CancelGTTOrder',
  ],
  'strategy edit': ['PATCH /strategies/{strategyId}'],
  'strategy edit between deliveries': [...ALERT, 'PATCH /strategies/{strategyId}', 'GET /signals/{id}'],
  'strategy token': ['POST /strategies/{strategyId}/token', 'DELETE /strategies/{strategyId}'],
  // system-options.ts: option plans by the API and /mcp, the index moved across their levels, a watcher run.
  'option plan': ['POST /plans', 'run InstrumentRefresh'],
  'mcp option plan': ['POST /mcp', 'POST /assistants', 'mcp create_plan', 'mcp confirm', 'GET /plans'],
  'index move': ['run GttWatcher', 'GET /plans/{planId}'],
  // system-mcp.ts, system-mcp-reads.ts
  'mcp place': ['POST /mcp', 'POST /assistants', 'mcp place_gtt', 'mcp place_oco', 'mcp confirm'],
  'mcp confirm': ['POST /mcp', 'mcp confirm'],
  'mcp previews then confirms': ['POST /mcp', 'mcp place_gtt', 'mcp confirm'],
  'mcp change': [
    'POST /mcp',
    'mcp change_gtt',
    'mcp modify_gtt',
    'mcp change_oco',
    'mcp modify_oco',
    'PATCH /gtt-orders/oco/{alId}',
    'PUT /gtt-orders/oco/{alId}',
  ],
  'mcp other write': [
    'POST /mcp',
    'mcp cancel_gtt',
    'mcp create_plan',
    'mcp cancel_plan',
    'mcp kill_switch_on',
    'mcp kill_switch_off',
  ],
  // system-exit.ts: the exit-only assistant (its preview and confirm read GET /positions and GET /gtt-orders).
  'mcp exit-only': ['POST /mcp', 'POST /assistants', 'mcp place_gtt', 'mcp place_oco', 'mcp confirm', 'GET /positions'],
  'mcp exit-only change': ['POST /mcp', 'mcp change_gtt', 'mcp confirm', 'GET /gtt-orders/{alId}'],
  // system-exit-plus.ts: its trailing stops (the plan's stop placed by POST /plans).
  'mcp exit-only trailing stop': ['POST /mcp', 'mcp create_plan', 'mcp confirm', 'GET /positions', 'POST /plans'],
  // system-exit-gap.ts: a trailing stop whose place may be lost, then an exit of the same (GET /plans read at each).
  'mcp exit-only owed stop': [
    'POST /mcp',
    'mcp create_plan',
    'mcp place_gtt',
    'mcp place_oco',
    'mcp confirm',
    'GET /plans',
  ],
  'mcp read': ['POST /mcp', ...READ_TOOL_NAMES.map((tool) => `mcp ${tool}`)],
  // system-mcp-risk.ts: the settings previewed, confirmed once, replayed; an exit-only assistant refused.
  'mcp settings': ['POST /mcp', 'mcp set_risk_limits', 'mcp set_coverage', 'mcp confirm', 'PUT /risk', 'GET /risk'],
  'assistants admin': [
    'GET /assistants',
    'GET /assistants/{assistantId}',
    'POST /assistants/{assistantId}/token',
    'DELETE /assistants/{assistantId}',
  ],
  // system-reads.ts
  ...Object.fromEntries(READS.map(({ route }) => [`read ${route}`, [route]])),
  'cancel plan': ['DELETE /plans/{planId}'],
  ...Object.fromEntries(SCHEDULED.map((name) => [`scheduled ${name}`, [`run ${name}`, `invoke ${name}`]])),
};

/** Functions whose direct invocation is their route's request in another envelope (base/middleware/routed-function.ts). */
const DIRECT_AS_ROUTES = [
  'GetGTTOrder',
  'GetTriggeredGTTOrders',
  'GetEnabledGTTs',
  'ModifyGTTOrder',
  'ModifyOCOOrder',
  'PatchGTTOrder',
  'PatchOCOOrder',
  'ClientDetails',
  'Logout',
  'GetOrderBook',
  'GetQuote',
  'GetSeries',
  'GetPositions',
  'Coverage',
  'KillSwitch',
  'EventsHistory',
  'Plans',
  'Strategies',
  'Assistants',
  'Risk',
  'EventForwarder',
];

export const NOT_DRIVEN: Readonly<Record<string, string>> = {
  'run SessionRenewal':
    "deployed only with a TOTP login (its deployedWhen); the model's stack logs in by OAuth, which the login command drives (the session's making and its end are both in the model)",
  'run NotifyFormatter':
    'formats the bus events as notification text for a webhook; it changes no order and reads no broker (test/integration/notify-formatter.test.ts)',
  ...Object.fromEntries(
    DIRECT_AS_ROUTES.map((name) => [
      `invoke ${name}`,
      'its direct payload becomes the same request as its route, which a command drives over HTTP (test/contract covers the payloads)',
    ]),
  ),
};

/** Every way into the function set the manifest offers: its routes, the functions started otherwise, /mcp's tools. */
export const manifestWays = (): string[] => [
  ...ROUTES.map(({ route }) => `${route.method} ${route.path}`),
  ...FUNCTIONS.filter((fn) => fn.trigger !== undefined).map((fn) => `run ${fn.name}`),
  ...FUNCTIONS.filter((fn) => fn.direct !== undefined).map((fn) => `invoke ${fn.name}`),
  ...[...READ_TOOL_NAMES, ...WRITE_TOOL_NAMES].map((tool) => `mcp ${tool}`),
];
