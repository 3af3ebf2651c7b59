/**
 * The typed client of the gtt-gateway HTTP API: a facade of named methods over the transport (transport.ts: SigV4,
 * an Idempotency-Key per order call that every retry reuses, retries only where they are safe, timeouts, one error
 * class). Each method names an operation of the generated operation list and passes its input: the method and path
 * come from the list, the types from the generated document (types.ts), so a method is one line.
 *
 * Every operation of the document is reachable through `call(operationId, ...)`; the named methods (placeOrder,
 * listOrders, ...) are typed shorthands for the operations of the table today. docs/reference/client.md has the rules.
 */
import type { Client } from 'openapi-fetch';

import { AssistantMethods } from './assistants.js';
import type { paths } from './generated/openapi.js';
import { followPages } from './paging.js';
import { Transport } from './transport.js';
import type {
  CallInput,
  CallOptions,
  CancelResult,
  ClientDetails,
  DryRun,
  DryRunResult,
  EnabledGtts,
  EventsPage,
  EventsQuery,
  GttClientOptions,
  GttOrder,
  GttOrderChanges,
  GttOrderInput,
  KillSwitchState,
  ListFilters,
  LoginStart,
  LogoutResult,
  ModifyOcoResult,
  ModifyResult,
  OcoOrderChanges,
  OcoOrderInput,
  OperationId,
  OperationResult,
  OptionChain,
  OptionChainQuery,
  OrderList,
  OrderOptions,
  PatchOcoResult,
  PatchResult,
  PlaceOcoResult,
  PlaceResult,
  PlanCreated,
  PlanInput,
  PlanList,
  PlanRecord,
  Quote,
  QuoteQuery,
  Series,
  SeriesQuery,
  SessionStatus,
  SignalList,
  SignalRecord,
  SignalsQuery,
  StrategyChanges,
  StrategyCreated,
  StrategyDeleted,
  StrategyInput,
  StrategyList,
  StrategyRecord,
  TriggeredList,
  TriggeredPage,
} from './types.js';

export class GttClient {
  readonly baseUrl: string;
  /** Whether requests are SigV4-signed. */
  readonly signing: boolean;
  readonly region: string | undefined;
  /**
   * The underlying openapi-fetch client, typed by the generated `paths`: no retries, no error mapping. Signing
   * applies. For whatever the named methods do not cover.
   */
  readonly raw: Client<paths>;
  /** The assistants of the MCP server (assistants.ts): create, list, get, rotate, delete. */
  readonly assistants: AssistantMethods;

  private readonly transport: Transport;

  constructor(options: GttClientOptions) {
    this.transport = new Transport(options);
    this.baseUrl = this.transport.baseUrl;
    this.signing = this.transport.signing;
    this.region = this.transport.region;
    this.raw = this.transport.raw;
    this.assistants = new AssistantMethods((operation, input, options) => this.operation(operation, input, options));
  }

  // ---- orders ----

  /** PlaceGTTOrder: `POST /gtt-orders`. */
  placeOrder(order: GttOrderInput, options: OrderOptions & DryRun): Promise<DryRunResult>;
  placeOrder(order: GttOrderInput, options?: OrderOptions): Promise<PlaceResult>;
  placeOrder(order: GttOrderInput, options: OrderOptions = {}): Promise<PlaceResult | DryRunResult> {
    return this.operation('PlaceGTTOrder', { body: order }, options);
  }

  /** PlaceOCOOrder: `POST /gtt-orders/oco`. */
  placeOco(oco: OcoOrderInput, options: OrderOptions & DryRun): Promise<DryRunResult>;
  placeOco(oco: OcoOrderInput, options?: OrderOptions): Promise<PlaceOcoResult>;
  placeOco(oco: OcoOrderInput, options: OrderOptions = {}): Promise<PlaceOcoResult | DryRunResult> {
    return this.operation('PlaceOCOOrder', { body: oco }, options);
  }

  /**
   * GetPendingGTTOrder: `GET /gtt-orders[?tsym=&exch=&limit=&cursor=]`, one page (100 orders unless `limit`, at most
   * 1,000); `nextCursor` is there while more remain.
   */
  listOrders(filters: ListFilters = {}, options: CallOptions = {}): Promise<OrderList> {
    return this.operation('GetPendingGTTOrder', { query: filters }, options);
  }

  /** Every pending order (of the filters), following `nextCursor` page by page: one call per page. */
  async listAllOrders(filters: Omit<ListFilters, 'cursor'> = {}, options: CallOptions = {}): Promise<OrderList> {
    return followPages('orders', (cursor) => this.listOrders({ ...filters, ...(cursor ? { cursor } : {}) }, options));
  }

  /** GetGTTOrder: `GET /gtt-orders/{alId}`. */
  getOrder(alId: string, options: CallOptions = {}): Promise<GttOrder> {
    return this.operation('GetGTTOrder', { path: { alId } }, options);
  }

  /** GetTriggeredGTTOrders: `GET /gtt-orders/triggered[?limit=&cursor=]`, one page, like `listOrders`. */
  triggered(options: CallOptions = {}, page: TriggeredPage = {}): Promise<TriggeredList> {
    return this.operation('GetTriggeredGTTOrders', { query: page }, options);
  }

  /** The whole triggered history, following `nextCursor`. */
  async allTriggered(options: CallOptions = {}, page: Omit<TriggeredPage, 'cursor'> = {}): Promise<TriggeredList> {
    return followPages('orders', (cursor) => this.triggered(options, { ...page, ...(cursor ? { cursor } : {}) }));
  }

  /** GetQuote: `GET /quotes?exch=&tsym=`: the last price (`lp`, absent without a quote), today's band, tick and lot. */
  quote(exch: QuoteQuery['exch'], tsym: string, options: CallOptions = {}): Promise<Quote> {
    return this.operation('GetQuote', { query: { exch, tsym } }, options);
  }

  /** GetSeries: `GET /quotes/series`: the price bars of a span (today's by default), oldest first. */
  series(query: SeriesQuery, options: CallOptions = {}): Promise<Series> {
    return this.operation('GetSeries', { query }, options);
  }

  /** GetOptionChain: `GET /options?underlying=NIFTY&expiry=`: the day's chain of an index (nearest expiry by default). */
  optionChain(query: OptionChainQuery, options: CallOptions = {}): Promise<OptionChain> {
    return this.operation('GetOptionChain', { query }, options);
  }

  /** GetEnabledGTTs: `GET /gtt-orders/enabled`. */
  enabled(options: CallOptions = {}): Promise<EnabledGtts> {
    return this.operation('GetEnabledGTTs', {}, options);
  }

  /** ModifyGTTOrder: `PUT /gtt-orders/{alId}` (a full replacement of the order's fields). */
  modifyOrder(alId: string, order: GttOrderInput, options: OrderOptions & DryRun): Promise<DryRunResult>;
  modifyOrder(alId: string, order: GttOrderInput, options?: OrderOptions): Promise<ModifyResult>;
  modifyOrder(alId: string, order: GttOrderInput, options: OrderOptions = {}): Promise<ModifyResult | DryRunResult> {
    return this.operation('ModifyGTTOrder', { path: { alId }, body: order }, options);
  }

  /** ModifyOCOOrder: `PUT /gtt-orders/oco/{alId}` (both legs again: a full replacement). */
  modifyOco(alId: string, oco: OcoOrderInput, options: OrderOptions & DryRun): Promise<DryRunResult>;
  modifyOco(alId: string, oco: OcoOrderInput, options?: OrderOptions): Promise<ModifyOcoResult>;
  modifyOco(alId: string, oco: OcoOrderInput, options: OrderOptions = {}): Promise<ModifyOcoResult | DryRunResult> {
    return this.operation('ModifyOCOOrder', { path: { alId }, body: oco }, options);
  }

  /**
   * PatchGTTOrder: `PATCH /gtt-orders/{alId}` with only what changes (`{d: '1495'}`); the gateway reads the pending
   * order, keeps the rest as the broker holds it, and answers 412 ORDER_CHANGED (nothing sent) when the order
   * changed since `ifMatch` (the `ETag` of `GET /gtt-orders/{alId}`) or since its own read.
   */
  patchOrder(
    alId: string,
    changes: GttOrderChanges,
    options: OrderOptions & DryRun & { ifMatch?: string },
  ): Promise<DryRunResult>;
  patchOrder(
    alId: string,
    changes: GttOrderChanges,
    options?: OrderOptions & { ifMatch?: string },
  ): Promise<PatchResult>;
  patchOrder(
    alId: string,
    changes: GttOrderChanges,
    { ifMatch, ...options }: OrderOptions & { ifMatch?: string } = {},
  ): Promise<PatchResult | DryRunResult> {
    return this.operation(
      'PatchGTTOrder',
      { path: { alId }, body: changes, ...(ifMatch === undefined ? {} : { ifMatch }) },
      options,
    );
  }

  /** PatchOCOOrder: `PATCH /gtt-orders/oco/{alId}`, e.g. `{stopLoss: {trigger: '1410'}}`; as `patchOrder`. */
  patchOco(
    alId: string,
    changes: OcoOrderChanges,
    options: OrderOptions & DryRun & { ifMatch?: string },
  ): Promise<DryRunResult>;
  patchOco(
    alId: string,
    changes: OcoOrderChanges,
    options?: OrderOptions & { ifMatch?: string },
  ): Promise<PatchOcoResult>;
  patchOco(
    alId: string,
    changes: OcoOrderChanges,
    { ifMatch, ...options }: OrderOptions & { ifMatch?: string } = {},
  ): Promise<PatchOcoResult | DryRunResult> {
    return this.operation(
      'PatchOCOOrder',
      { path: { alId }, body: changes, ...(ifMatch === undefined ? {} : { ifMatch }) },
      options,
    );
  }

  /** CancelGTTOrder: `DELETE /gtt-orders/{alId}` (single or OCO). */
  cancelOrder(alId: string, options: OrderOptions & DryRun): Promise<DryRunResult>;
  cancelOrder(alId: string, options?: OrderOptions): Promise<CancelResult>;
  cancelOrder(alId: string, options: OrderOptions = {}): Promise<CancelResult | DryRunResult> {
    return this.operation('CancelGTTOrder', { path: { alId } }, options);
  }

  // ---- the account and its session ----

  /** ClientDetails: `GET /client`. */
  clientDetails(options: CallOptions = {}): Promise<ClientDetails> {
    return this.operation('ClientDetails', {}, options);
  }

  /** Logout: `POST /session/logout`. Never retried: after it, every call answers SESSION_EXPIRED. */
  logout(options: CallOptions = {}): Promise<LogoutResult> {
    return this.operation('Logout', {}, { ...options, maxAttempts: 1 });
  }

  /** StartLogin: `GET /session/oauth/start`: the broker's login page to open (a browser login, then the callback). */
  startLogin(options: CallOptions = {}): Promise<LoginStart> {
    return this.operation('StartLogin', {}, options);
  }

  /** GetSession: `GET /session`: whose session the gateway trades with, since when, alive or not. */
  session(options: CallOptions = {}): Promise<SessionStatus> {
    return this.operation('GetSession', {}, options);
  }

  // ---- controls and history ----

  /**
   * The kill switch: `on` (POST /kill-switch: refuse places and modifies, cancel every pending order, or with
   * `mode: 'keep-exits'` every one but the OCOs and the exits and stops of plans), `off` (DELETE), `status` (GET).
   * On and off are sent once (a repeat is harmless but not automatic).
   */
  killSwitch(
    action: 'on' | 'off' | 'status',
    options: CallOptions = {},
    mode?: 'cancel-all' | 'keep-exits',
  ): Promise<KillSwitchState> {
    if (action === 'on')
      return this.operation('ActivateKillSwitch', mode === undefined ? {} : { body: { mode } }, options);
    if (action === 'off') return this.operation('ReleaseKillSwitch', {}, options);
    return this.operation('GetKillSwitch', {}, options);
  }

  /**
   * ListEvents: `GET /events[?since=&type=&limit=&cursor=]`: the account's lifecycle events of the last 30 days,
   * oldest first, since `since` (default: the start of today, India time); one page, like `listOrders`.
   */
  events(query: EventsQuery = {}, options: CallOptions = {}): Promise<EventsPage> {
    return this.operation('ListEvents', { query }, options);
  }

  /** Every event since `since` (of `type`), following `nextCursor` page by page. */
  async allEvents(query: Omit<EventsQuery, 'cursor'> = {}, options: CallOptions = {}): Promise<EventsPage> {
    return followPages('events', (cursor) => this.events({ ...query, ...(cursor ? { cursor } : {}) }, options));
  }

  // ---- plans ----

  /**
   * CreatePlan: `POST /plans` with an Idempotency-Key (made up when absent, and kept for the retries): a bracket or
   * a trailing stop (docs/reference/plans.md). The same key again answers the same plan.
   */
  createPlan(plan: PlanInput, options: OrderOptions = {}): Promise<PlanCreated> {
    return this.operation('CreatePlan', { body: plan }, options);
  }

  /** ListPlans: `GET /plans`, a page at a time (`nextCursor` while more remain). */
  plans(page: { limit?: number; cursor?: string } = {}, options: CallOptions = {}): Promise<PlanList> {
    return this.operation('ListPlans', { query: page }, options);
  }

  /** GetPlan: `GET /plans/{planId}`. */
  getPlan(planId: string, options: CallOptions = {}): Promise<PlanRecord> {
    return this.operation('GetPlan', { path: { planId } }, options);
  }

  /** CancelPlan: `DELETE /plans/{planId}`: its live GTT cancelled, the plan ended. */
  cancelPlan(planId: string, options: CallOptions = {}): Promise<PlanRecord> {
    return this.operation('CancelPlan', { path: { planId } }, options);
  }

  // ---- strategies (docs/reference/signals.md) ----

  /**
   * CreateStrategy: `POST /strategies` with an Idempotency-Key (made up when absent, kept for the retries). The reply's
   * `webhookUrl` holds the strategy's token and is shown this once; the same key again answers the same strategy with
   * a new token.
   */
  createStrategy(strategy: StrategyInput, options: OrderOptions = {}): Promise<StrategyCreated> {
    return this.operation('CreateStrategy', { body: strategy }, options);
  }

  /** ListStrategies: `GET /strategies` (no tokens). */
  strategies(options: CallOptions = {}): Promise<StrategyList> {
    return this.operation('ListStrategies', {}, options);
  }

  /** GetStrategy: `GET /strategies/{strategyId}` (no token). */
  getStrategy(strategyId: string, options: CallOptions = {}): Promise<StrategyRecord> {
    return this.operation('GetStrategy', { path: { strategyId } }, options);
  }

  /**
   * UpdateStrategy: `PATCH /strategies/{strategyId}`: only the fields given change (`null` removes an optional one);
   * the webhook URL is kept. Refused whole (400) when a field is unknown or the result would not be a valid strategy.
   */
  updateStrategy(strategyId: string, changes: StrategyChanges, options: CallOptions = {}): Promise<StrategyRecord> {
    return this.operation('UpdateStrategy', { path: { strategyId }, body: changes }, options);
  }

  /** DeleteStrategy: `DELETE /strategies/{strategyId}`: its webhook URL stops working at once. */
  deleteStrategy(strategyId: string, options: CallOptions = {}): Promise<StrategyDeleted> {
    return this.operation('DeleteStrategy', { path: { strategyId } }, options);
  }

  /** RotateStrategyToken: `POST /strategies/{strategyId}/token`: a new webhookUrl (shown once), the old one dead. */
  rotateStrategyToken(strategyId: string, options: CallOptions = {}): Promise<StrategyCreated> {
    return this.operation('RotateStrategyToken', { path: { strategyId } }, options);
  }

  /**
   * ListSignals: `GET /signals[?strategyId=&state=&limit=&cursor=]`: the signals of the last 30 days, newest first,
   * each with its fate (results, or the reason it was refused); one page.
   */
  signals(query: SignalsQuery = {}, options: CallOptions = {}): Promise<SignalList> {
    return this.operation('ListSignals', { query }, options);
  }

  /** Every signal (of `strategyId`, in `state`), following `nextCursor` page by page. */
  async allSignals(query: Omit<SignalsQuery, 'cursor'> = {}, options: CallOptions = {}): Promise<SignalList> {
    return followPages('signals', (cursor) => this.signals({ ...query, ...(cursor ? { cursor } : {}) }, options));
  }

  /** GetSignal: `GET /signals/{id}` with a signalId: one signal and what became of it. */
  getSignal(signalId: string, options: CallOptions = {}): Promise<SignalRecord> {
    return this.operation('GetSignal', { path: { id: signalId } }, options);
  }

  // ---- any operation ----

  /**
   * Any operation of the OpenAPI document by its operationId, with the same keys, retries, timeouts and errors as
   * the named methods: operations added to the table are callable as soon as the types are regenerated.
   */
  call<Id extends OperationId>(
    operation: Id,
    input: CallInput<Id>,
    options: OrderOptions & DryRun,
  ): Promise<DryRunResult>;
  call<Id extends OperationId>(
    operation: Id,
    input?: CallInput<Id>,
    options?: OrderOptions,
  ): Promise<OperationResult<Id>>;
  call<Id extends OperationId>(
    operation: Id,
    input: CallInput<Id> = {},
    options: OrderOptions = {},
  ): Promise<OperationResult<Id> | DryRunResult> {
    return this.transport.run(operation, options, this.transport.request(operation, input, false));
  }

  /** A named method's call: the key and dryRun sent only where the operation takes them. */
  private operation<Id extends OperationId>(
    operation: Id,
    input: CallInput<Id>,
    options: OrderOptions,
  ): Promise<OperationResult<Id>> {
    return this.transport.run(operation, options, this.transport.request(operation, input, true));
  }
}

export const createGttClient = (options: GttClientOptions): GttClient => new GttClient(options);
