/**
 * The whole function set: one Lambda per entry of the operation table (infra/operation-functions.ts) and the kill
 * switch (infra/kill-switch.ts), the HTTP API in front of them (infra/gateway-api.ts: IAM authorisation on every
 * route), the session functions, the lifecycle events, the broker session secret, the idempotency and control tables,
 * the audit archive, alarms, outputs (infra/gateway-outputs.ts), and the egress setting (infra/egress.ts: by default
 * a VPC with two NAT instances, so the broker sees two static IPs).
 */
import { CfnParameter, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import * as sns from 'aws-cdk-lib/aws-sns';
import type { Construct } from 'constructs';

import { KILL_SWITCH } from '../../functions/control-functions.js';
import { OPERATIONS } from '../../functions/operations.js';
import { DEPLOYMENT_SETTINGS, environmentOf } from '../../functions/runtime/env.js';
import { addApiAlarm, applyRouteSettings, buildGatewayApi } from '../constructs/api.js';
import { AuditArchive } from '../constructs/audit.js';
import { EGRESS_CONTEXT_KEY, type EgressSetting, resolveEgress, StaticEgress } from '../constructs/egress.js';
import {
  FORWARDER_EVENTS_TABLE_ACTIONS,
  LifecycleEvents,
  resolveWatcherEnabled,
  resolveWatcherSchedule,
  WATCHER_EVENTS_TABLE_ACTIONS,
} from '../constructs/events.js';
import { addEventsHistory } from '../constructs/events-history.js';
import type { GatewayFunction, GatewayFunctionNetwork } from '../constructs/gateway-function.js';
import { addKillSwitch, KILL_SWITCH_TABLE_ACTIONS } from '../constructs/kill-switch.js';
import { addOperationFunctions, type OperationFunctionsProps } from '../constructs/operation-functions.js';
import { addGatewayOutputs, suppressGatewayNagFindings } from '../constructs/outputs.js';
import { addPlans, grantPlanActor, planActorEnvironment, PLANS_EVENTS_TABLE_ACTIONS } from '../constructs/plans.js';
import { OAUTH_STATE_TABLE_ACTIONS, resolveEndOfDayLogout, SessionFunctions } from '../constructs/session.js';
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
   * How the functions reach the broker: `nat-instance` (default), `nat-gateway` or `none` (docs/egress.md).
   * Wins over the CDK context key `egress`; an unknown value fails the synth.
   */
  egress?: EgressSetting;
  /**
   * The broker (infra/broker-setup.ts): the parameters' defaults, how the token travels, the login flow, and the
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

export class GatewayStack extends Stack {
  readonly functions = new Map<string, GatewayFunction>();
  readonly api: HttpApi;
  readonly secret: secretsmanager.ISecret;
  readonly idempotencyTable: dynamodb.Table;
  /** The trading controls: the order-rate governor's log and the kill switch, one item per account. */
  readonly controlTable: dynamodb.Table;
  readonly egress: EgressSetting;
  /** The VPC, NATs and static addresses; undefined with egress `none`. */
  readonly staticEgress?: StaticEgress;
  readonly session: SessionFunctions;
  readonly events: LifecycleEvents;
  /** The kill switch (functions/control-functions.ts): POST, DELETE, GET /kill-switch. */
  readonly killSwitch: GatewayFunction;
  readonly eventsHistory: GatewayFunction;
  readonly plans: GatewayFunction;
  /** The five-year audit archive (S3 with Object Lock) the audit records of the log groups reach. */
  readonly audit: AuditArchive;

  constructor(scope: Construct, id: string, props: GatewayStackProps = {}) {
    super(scope, id, props);
    this.egress = resolveEgress(props.egress, this.node.tryGetContext(EGRESS_CONTEXT_KEY));

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

    // Not an expiring table: the kill switch's state must outlive everything (the governor's log prunes itself).
    this.controlTable = new dynamodb.Table(this, 'ControlTable', {
      partitionKey: { name: 'pk', type: dynamodb.AttributeType.STRING },
      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      encryption: dynamodb.TableEncryption.AWS_MANAGED,
      removalPolicy: RemovalPolicy.DESTROY,
    });

    const gateway = buildGatewayApi(this);
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
        idempotencyTable: this.idempotencyTable,
        alarmAction,
      });
    }
    const context = (name: string): unknown => this.node.tryGetContext(name);
    const webhook = resolveNotifyWebhook(props, context);
    this.events = new LifecycleEvents(this, 'Events', { alarmAction, ...(webhook ? { webhook } : {}) });
    this.staticEgress?.allowTableCalls(this.events.table, [
      ...new Set([...FORWARDER_EVENTS_TABLE_ACTIONS, ...WATCHER_EVENTS_TABLE_ACTIONS, ...PLANS_EVENTS_TABLE_ACTIONS]),
    ]);
    this.staticEgress?.allowTableCalls(this.controlTable, [...KILL_SWITCH_TABLE_ACTIONS]);

    const network: GatewayFunctionNetwork | undefined = this.staticEgress
      ? {
          vpc: this.staticEgress.vpc,
          subnets: this.staticEgress.functionSubnets,
          securityGroup: this.staticEgress.functionSecurityGroup,
        }
      : undefined;
    const functionProps: OperationFunctionsProps = {
      brokerBaseUrl: brokerBaseUrl.valueAsString,
      settings: { ...settings, ...environmentOf({ brokerAuth }) },
      secret: this.secret,
      idempotencyTable: this.idempotencyTable,
      controlTable: this.controlTable,
      ...(broker.rateLimits ? { brokerRateLimits: broker.rateLimits } : {}),
      events: this.events,
      ...(network ? { network } : {}),
      gateway,
      alarmAction,
    };
    for (const [name, fn] of addOperationFunctions(this, functionProps)) this.functions.set(name, fn);
    this.killSwitch = addKillSwitch(this, functionProps);
    this.eventsHistory = addEventsHistory(this, functionProps);
    this.plans = addPlans(this, functionProps);
    this.session = new SessionFunctions(this, 'Session', {
      api: this.api,
      authorizer: gateway.authorizer,
      sessionSecret: this.secret,
      ...(props.oauthAppSecretArn ? { oauthAppSecretArn: props.oauthAppSecretArn } : {}),
      brokerBaseUrl: brokerBaseUrl.valueAsString,
      brokerAuthorizeUrl: brokerAuthorizeUrl.valueAsString,
      brokerAuth,
      brokerLogin: broker.login,
      ...(broker.tokenUrl ? { brokerTokenUrl: broker.tokenUrl } : {}),
      ...(network ? { network } : {}),
      alarmAction,
      renewal: broker.totp,
      ...(resolveEndOfDayLogout(this.node.tryGetContext('endOfDayLogout')) === undefined
        ? {}
        : { endOfDayLogout: resolveEndOfDayLogout(this.node.tryGetContext('endOfDayLogout'))! }),
      routeSettings: gateway.routeSettings,
      eventBus: { name: this.events.bus.eventBusName, grantPublish: (role) => this.events.grantSessionFunction(role) },
    });
    // Checked even with the watcher off: a malformed expression is a mistake either way.
    const watcherSchedule = resolveWatcherSchedule(props.watcherSchedule ?? context('watcherSchedule'));
    if (resolveWatcherEnabled(props.watcher, context('watcher'))) {
      const watcher = this.events.addWatcher(
        {
          brokerBaseUrl: brokerBaseUrl.valueAsString,
          brokerAuth,
          sessionSecret: this.secret,
          schedule: watcherSchedule,
          ...(network ? { network } : {}),
        },
        alarmAction,
      );
      // The watcher carries the plans out: the order path's environment and grants, as the Plans function has.
      for (const [name, value] of Object.entries(planActorEnvironment(functionProps)))
        watcher.function.addEnvironment(name, value);
      grantPlanActor(watcher.role, {
        idempotencyTable: this.idempotencyTable,
        controlTable: this.controlTable,
        eventsTable: this.events.table,
      });
    }
    // The outbox's other half: the idempotency table's stream to the bus, off the order path.
    this.events.addForwarder({ idempotencyTable: this.idempotencyTable, ...(network ? { network } : {}) }, alarmAction);
    this.events.addDashboard(OPERATIONS);
    // In the VPC every DynamoDB call goes through the gateway endpoint: the OAuth function's state table too.
    this.staticEgress?.allowTableCalls(this.session.stateTable, OAUTH_STATE_TABLE_ACTIONS);
    applyRouteSettings(gateway);

    // The functions that write audit records: the order functions, the kill switch, the token writers.
    const auditRetentionDays = context('auditRetentionDays');
    this.audit = new AuditArchive(
      this,
      'Audit',
      auditRetentionDays === undefined ? {} : { retentionDays: resolveAuditRetentionDays(auditRetentionDays) },
    );
    for (const operation of OPERATIONS.filter((op) => op.kind === 'order'))
      this.audit.addLogGroup(operation.name, this.functions.get(operation.name)!.logGroup);
    this.audit.addLogGroup(KILL_SWITCH.name, this.killSwitch.logGroup);
    for (const name of ['OAuthCallback', 'SessionRenewal'] as const) {
      const fn = this.session.functions.get(name);
      if (fn) this.audit.addLogGroup(name, fn.logGroup);
    }

    addApiAlarm(this, this.api, alarmAction);
    addGatewayOutputs(this, alarmTopic);
    suppressGatewayNagFindings(this);
  }
}
