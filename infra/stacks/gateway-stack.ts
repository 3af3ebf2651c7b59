/**
 * The gateway as stacks of one app, split by concern so each stays far inside CloudFormation's limits (500 resources,
 * 200 outputs; a test holds each to 300 and 100 with every option on): `GatewayStack` itself holds the parameters,
 * the secrets, the tables, the queue, the bus, the network, the audit archive, the alarm topic, the API (without its
 * stage), the console's site (the API's CORS names it), and the session and events functions, which own tables the
 * network's DynamoDB endpoint names; after it come `-Orders` (the operations and the kill switch), `-Automation`
 * (plans, strategies, signals, assistants, the MCP server, the events history, the instrument refresh), `-Api` (the
 * API's stage, whose per-route throttling needs every route to exist first) and `-Console` (the sign-in and the
 * files). Cross-stack references are CloudFormation exports; `cdk deploy` orders the stacks by them.
 *
 * The whole function set, every function from its entry of the manifest (functions/manifest/, built through
 * infra/constructs/manifest-function.ts): the operations, the kill switch, the events history and the plans on the
 * stack (infra/constructs/gateway-functions.ts), the HTTP API in front of them (infra/constructs/api.ts: IAM
 * authorisation on every route but the OAuth callback), the session functions, the lifecycle events with the watcher
 * and the outbox's forwarder, the broker session secret, the idempotency and control tables, the audit archive,
 * alarms, outputs (infra/constructs/outputs.ts), and the egress setting (infra/constructs/egress.ts: by default a
 * VPC with two NAT instances, so the broker sees two static IPs).
 */
import { CfnParameter, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import * as sns from 'aws-cdk-lib/aws-sns';
import type { Construct } from 'constructs';

import { DEPLOYMENT_SETTINGS, environmentOf } from '../../functions/base/runtime/env.js';
import { type FunctionDefinition, FUNCTIONS, OPERATIONS, routesOf } from '../../functions/manifest/index.js';
import { addApiAlarm, addGatewayApi, applyRouteSettings, signedRouteArns } from '../constructs/api.js';
import { AuditArchive } from '../constructs/audit.js';
import {
  allowConsoleOrigin,
  CONSOLE_CONTEXT_KEY,
  ConsoleSite,
  resolveConsoleEnabled,
  TraderConsole,
} from '../constructs/console.js';
import { CONSOLE_DOMAIN_PREFIX_CONTEXT_KEY } from '../constructs/console-sign-in.js';
import { EGRESS_CONTEXT_KEY, type EgressSetting, resolveEgress, StaticEgress } from '../constructs/egress.js';
import { LifecycleEvents, resolveWatcherEnabled, resolveWatcherSchedule } from '../constructs/events.js';
import type { GatewayFunction } from '../constructs/gateway-function.js';
import { addGatewayFunctions, isOrderFunction } from '../constructs/gateway-functions.js';
import { type FunctionWiring, isDeployed } from '../constructs/manifest-function.js';
import { addGatewayOutputs, suppressGatewayNagFindings } from '../constructs/outputs.js';
import { resolveEndOfDayLogout, SessionFunctions } from '../constructs/session.js';
import { addSignalQueue, resolveSignalBaseUrl } from '../constructs/signals.js';
import { tableActionsOf } from '../constructs/table-grants.js';
import { expiringTable } from '../constructs/tables.js';
import { type BrokerSetup, resolveBrokerSetup } from '../settings/broker-setup.js';
import { type NotifyWebhookProps, resolveNotifyWebhook } from '../settings/notify-webhook.js';

/** Deployment settings that may come from CDK context (`-c name=value`) and go to the functions' environment. */
export const CONTEXT_SETTINGS = DEPLOYMENT_SETTINGS;

/** With the webhook's settings (`NotifyWebhookProps`: URL, header, secret, format, Telegram chat, notifyOn). */
export interface GatewayStackProps extends StackProps, NotifyWebhookProps {
  /** Import an existing secret instead of creating one. */
  brokerSecretArn?: string;
  /** Settings by environment name (guardrails, idempotency); validated by the functions at cold start. */
  settings?: Partial<Record<(typeof CONTEXT_SETTINGS)[number], string>>;
  alarmEmail?: string;
  /**
   * How the functions reach the broker: `nat-instance` (default), `nat-gateway` or `none` (docs/explanation/egress.md).
   * Wins over the CDK context key `egress`; an unknown value fails the synth.
   */
  egress?: EgressSetting;
  /**
   * The broker (infra/settings/broker-setup.ts): the parameters' defaults, how the token travels, the login flow, and the
   * scheduled TOTP login of classic deployments. Default: `custom` with Bearer and the OAuth login, URLs at deploy.
   */
  broker?: BrokerSetup;
  /** Use an existing secret for the OAuth app's `{clientId, secretCode, uid}` instead of creating one. */
  oauthAppSecretArn?: string;
  /**
   * The GttWatcher's EventBridge Scheduler expression, India time; wins over the context key `watcherSchedule`.
   * Default `cron(* 9-15 ? * MON-FRI *)` (NSE hours); anything but `cron(...)` or `rate(...)` fails the synth.
   */
  watcherSchedule?: string;
  /**
   * false leaves the GttWatcher and its schedule out; wins over the context key `watcher` (`on`, the default, or
   * `off`; anything else fails the synth). The bus, the table and the gateway's own events stay.
   */
  watcher?: boolean;
  /**
   * The function set, every function from its definition; default the manifest's (functions/manifest/index.ts).
   * A test adds a definition of its own here without touching the manifest.
   */
  functions?: readonly FunctionDefinition[];
  /** false leaves the trader's console out; wins over the context key `console` (`on`, the default, or `off`). */
  console?: boolean;
}

/** `-c auditRetentionDays=N`: at least one year (the rules ask five), at most ten; anything else fails the synth. */
export const resolveAuditRetentionDays = (value: unknown): number => {
  const days = Number(value);
  if (!Number.isInteger(days) || days < 365 || days > 3_653) {
    throw new Error(
      `auditRetentionDays must be a whole number of days from 365 to 3653 (default 1827, five years); got ${JSON.stringify(value)}`,
    );
  }
  return days;
};

/** The stacks after the gateway stack, by concern; each is named `<gateway stack name>-<Part>`. */
export const GATEWAY_PARTS = ['Orders', 'Automation', 'Api', 'Console'] as const;
export type GatewayPart = (typeof GATEWAY_PARTS)[number];

export class GatewayStack extends Stack {
  /**
   * The functions of the orders and automation stacks, by manifest name: the operations, KillSwitch, EventsHistory,
   * Plans, the signals', the assistants', the MCP server.
   */
  readonly functions: Map<string, GatewayFunction>;
  /** The stacks after this one (`Console` only with the console on). */
  readonly parts: { Orders: Stack; Automation: Stack; Api: Stack; Console?: Stack };
  readonly api: HttpApi;
  readonly secret: secretsmanager.ISecret;
  readonly idempotencyTable: dynamodb.Table;
  /** The trading controls: the order-rate governor's log and the kill switch, one item per account. */
  readonly controlTable: dynamodb.Table;
  readonly instrumentsTable: dynamodb.Table;
  readonly egress: EgressSetting;
  /** The VPC, NATs and static addresses; undefined with egress `none`. */
  readonly staticEgress?: StaticEgress;
  readonly session: SessionFunctions;
  readonly events: LifecycleEvents;
  /** The five-year audit archive (S3 with Object Lock) the audit records of the log groups reach. */
  readonly audit: AuditArchive;
  /** The trader's console (S3, CloudFront, Cognito); undefined with `-c console=off`. */
  readonly console?: TraderConsole;

  constructor(scope: Construct, id: string, props: GatewayStackProps = {}) {
    super(scope, id, props);
    this.egress = resolveEgress(props.egress, this.node.tryGetContext(EGRESS_CONTEXT_KEY));
    const consoleOn = resolveConsoleEnabled(props.console ?? this.node.tryGetContext(CONSOLE_CONTEXT_KEY));
    const part = (name: GatewayPart, description: string) =>
      new Stack(scope, `${id}-${name}`, {
        ...(props.env ? { env: props.env } : {}),
        ...(props.crossRegionReferences === undefined ? {} : { crossRegionReferences: props.crossRegionReferences }),
        description: `gtt-gateway (${id}): ${description}`,
      });
    this.parts = {
      Orders: part('Orders', 'the GTT order operations and the kill switch, their routes and alarms'),
      Automation: part('Automation', 'plans, strategies and signals, assistants and the MCP server, their routes'),
      Api: part('Api', "the HTTP API's stage (per-route throttling), access logs and 5xx alarm"),
      ...(consoleOn ? { Console: part('Console', "the trader's console: sign-in, files, outputs") } : {}),
    };
    // The stage names every route by key: it is made after every stack that adds routes.
    this.parts.Api.addStackDependency(this.parts.Orders);
    this.parts.Api.addStackDependency(this.parts.Automation);

    const broker = props.broker ?? resolveBrokerSetup({});
    const brokerAuth = broker.auth;
    const brokerBaseUrl = new CfnParameter(this, 'BrokerBaseUrl', {
      type: 'String',
      description: `The broker's base URL with its path prefix (${broker.preset} preset${broker.baseUrl ? '' : ': give it at deploy'}); calls go to {BrokerBaseUrl}/<Operation>`,
      ...(broker.baseUrl ? { default: broker.baseUrl } : {}),
      allowedPattern: '^https?://[^\\s]+$',
      constraintDescription: 'must be an http(s) URL',
    });
    const brokerAuthorizeUrl = new CfnParameter(this, 'BrokerAuthorizeUrl', {
      type: 'String',
      description:
        "The broker's login page as a template ({clientId}, {uid}; without {clientId}, client_id is added); the OAuth start route answers it with state",
      default: broker.authorizeUrl ?? 'https://broker.invalid/OAuthlogin/authorize/oauth?client_id={clientId}',
      allowedPattern: '^https?://[^\\s]+$',
      constraintDescription: 'must be an http(s) URL',
    });

    this.secret = props.brokerSecretArn
      ? secretsmanager.Secret.fromSecretCompleteArn(this, 'BrokerSession', props.brokerSecretArn)
      : new secretsmanager.Secret(this, 'BrokerSession', {
          description: 'gtt-gateway broker session: JSON {"accessToken","uid","actid","brkname"?}; set it after deploy',
          // A placeholder until the real value is put (README): the functions refuse it as malformed only if edited badly.
          generateSecretString: {
            secretStringTemplate: JSON.stringify({ uid: 'SET-ME', actid: 'SET-ME' }),
            generateStringKey: 'accessToken',
            excludePunctuation: true,
          },
        });

    // Records expire within a day anyway; nothing here outlives a teardown.
    // Its stream carries the outbox: each completed record's lifecycle events, forwarded by the EventForwarder.
    this.idempotencyTable = expiringTable(this, 'IdempotencyTable', {
      partitionKey: 'id',
      timeToLiveAttribute: 'expiration',
      pointInTimeRecovery: true,
      stream: dynamodb.StreamViewType.NEW_IMAGE,
    });

    // The kill switch's state must outlive everything (the governor's log prunes itself); only the orders' given-back
    // leases expire (`expiresAt`, a day after their change: functions/orders/lease.ts).
    this.controlTable = new dynamodb.Table(this, 'ControlTable', {
      partitionKey: { name: 'pk', type: dynamodb.AttributeType.STRING },
      timeToLiveAttribute: 'expiresAt',
      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      encryption: dynamodb.TableEncryption.AWS_MANAGED,
      removalPolicy: RemovalPolicy.DESTROY,
    });

    // The account's copy of the instruments' rules (functions/instruments/), rebuilt each day; recovery as the others.
    this.instrumentsTable = expiringTable(this, 'InstrumentsTable', {
      partitionKey: 'pk',
      timeToLiveAttribute: 'expiresAt',
      pointInTimeRecovery: true,
    });

    const gateway = addGatewayApi(this, this.parts.Api);
    this.api = gateway.api;

    const settings = Object.fromEntries(
      Object.entries(props.settings ?? {}).filter(([, v]) => v !== undefined),
    ) as Record<string, string>;
    const alarmTopic = new sns.Topic(this, 'AlarmTopic', {
      displayName: 'gtt-gateway alarms',
      enforceSSL: true,
      masterKey: kms.Alias.fromAliasName(this, 'SnsKey', 'alias/aws/sns'),
    });
    if (props.alarmEmail)
      new sns.Subscription(this, 'AlarmEmail', {
        topic: alarmTopic,
        protocol: sns.SubscriptionProtocol.EMAIL,
        endpoint: props.alarmEmail,
      });
    const alarmAction = new SnsAction(alarmTopic);
    if (this.egress !== 'none') {
      this.staticEgress = new StaticEgress(this, 'Egress', {
        setting: this.egress,
        alarmAction,
      });
    }
    const context = (name: string): unknown => this.node.tryGetContext(name);
    const webhook = resolveNotifyWebhook(props, context);
    const endOfDayLogout = resolveEndOfDayLogout(context('endOfDayLogout'));
    // Checked even with the watcher off: a malformed expression is a mistake either way.
    const watcherSchedule = resolveWatcherSchedule(props.watcherSchedule ?? context('watcherSchedule'));

    // What every function is built from (its environment by catalogue key, its grants' resources); the events and
    // the session constructs add their own.
    const wiring: FunctionWiring = {
      values: {
        brokerBaseUrl: brokerBaseUrl.valueAsString,
        brokerAuth,
        brokerSecretId: this.secret.secretArn,
        idempotencyTableName: this.idempotencyTable.tableName,
        controlTableName: this.controlTable.tableName,
        instrumentsTableName: this.instrumentsTable.tableName,
        // The broker's own order rate (its preset), unless the deployment sets the order rate (in `settings`).
        orderRatePerSecond: broker.rateLimits?.perSecond,
        orderRatePerMinute: broker.rateLimits?.perMinute,
      },
      settings: { ...settings, ...environmentOf({ brokerAuth }) },
      resources: {
        sessionSecret: this.secret,
        idempotencyTable: this.idempotencyTable,
        controlTable: this.controlTable,
        instrumentsTable: this.instrumentsTable,
        // The remote MCP function calls the API's signed routes of its tools' operations, with its own role.
        apiRoutes: (operationIds) => signedRouteArns(gateway.api, props.functions ?? FUNCTIONS, operationIds),
      },
      deployed: {
        totpRenewal: broker.totp,
        endOfDayLogout: endOfDayLogout !== undefined,
        watcher: resolveWatcherEnabled(props.watcher, context('watcher')),
        notifyFormat: webhook !== undefined && webhook.format !== 'event',
      },
      ...(this.staticEgress
        ? {
            network: {
              vpc: this.staticEgress.vpc,
              subnets: this.staticEgress.functionSubnets,
              securityGroup: this.staticEgress.functionSecurityGroup,
            },
          }
        : {}),
      api: gateway,
      alarmAction,
    };
    this.events = new LifecycleEvents(this, 'Events', { wiring, ...(webhook ? { webhook } : {}) });

    // The signal queue between the webhook and the worker (functions/signals/).
    const signals = addSignalQueue(this, alarmAction);
    this.functions = addGatewayFunctions(
      (entry) => (isOrderFunction(entry) ? this.parts.Orders : this.parts.Automation),
      this.stackName,
      {
        ...this.events.wiring,
        values: {
          ...this.events.wiring.values,
          signalQueueUrl: signals.queue.queueUrl,
          signalBaseUrl: resolveSignalBaseUrl(context('signalBaseUrl')),
        },
        resources: { ...this.events.wiring.resources, signalQueue: signals.queue },
      },
      props.functions,
    );
    this.session = new SessionFunctions(this, 'Session', {
      wiring: this.events.wiring,
      ...(props.oauthAppSecretArn ? { oauthAppSecretArn: props.oauthAppSecretArn } : {}),
      brokerAuthorizeUrl: brokerAuthorizeUrl.valueAsString,
      brokerLogin: broker.login,
      ...(broker.tokenUrl ? { brokerTokenUrl: broker.tokenUrl } : {}),
      ...(endOfDayLogout === undefined ? {} : { endOfDayLogout }),
      ...(props.functions ? { functions: props.functions } : {}),
    });
    if (this.events.wiring.deployed.watcher) this.events.addWatcher(watcherSchedule);
    // The outbox's other half: the idempotency table's stream to the bus, off the order path.
    this.events.addForwarder(this.idempotencyTable);
    this.events.addDashboard(OPERATIONS);
    // In the VPC every DynamoDB call goes through the gateway endpoint: on each table it allows what the deployed
    // functions (all of them in the VPC) are granted there, derived from their grants (table-grants.ts).
    const tables = {
      idempotencyTable: this.idempotencyTable,
      eventsTable: this.events.table,
      controlTable: this.controlTable,
      instrumentsTable: this.instrumentsTable,
      oauthStateTable: this.session.stateTable,
    };
    const inVpc = (props.functions ?? FUNCTIONS).filter((f) => isDeployed(f, this.events.wiring));
    for (const [table, actions] of tableActionsOf(inVpc.map((f) => f.grants)))
      this.staticEgress?.allowTableCalls(tables[table], actions);
    applyRouteSettings(gateway);

    // The functions that write audit records (their definitions' `audit`): the order functions, the kill switch,
    // the signal worker (the order operations in-process), the token writers.
    const auditRetentionDays = context('auditRetentionDays');
    this.audit = new AuditArchive(
      this,
      'Audit',
      auditRetentionDays === undefined ? {} : { retentionDays: resolveAuditRetentionDays(auditRetentionDays) },
    );
    for (const entry of (props.functions ?? FUNCTIONS).filter((f) => f.audit)) {
      const fn = this.functions.get(entry.name) ?? this.session.functions.get(entry.name);
      if (fn) this.audit.addLogGroup(entry.name, fn.logGroup);
    }

    if (this.parts.Console) {
      const routes = routesOf(props.functions ?? FUNCTIONS).map(({ route }) => route);
      // The site beside the API, whose CORS names its origin; the sign-in and the files after the API.
      const site = new ConsoleSite(
        this,
        'Console',
        context(CONSOLE_DOMAIN_PREFIX_CONTEXT_KEY) === undefined
          ? {}
          : { domainPrefix: String(context(CONSOLE_DOMAIN_PREFIX_CONTEXT_KEY)) },
      );
      allowConsoleOrigin(this.api, site.origin, routes);
      this.console = new TraderConsole(this.parts.Console, 'Console', {
        site,
        api: this.api,
        stageName: gateway.stage.stageName,
        routes,
      });
    }

    addApiAlarm(this.parts.Api, this.api, alarmAction);
    addGatewayOutputs(this, alarmTopic);
    suppressGatewayNagFindings(this);
  }
}
