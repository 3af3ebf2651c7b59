/**
 * The whole function set: one Lambda per entry of the operation table, the HTTP API in front of them (IAM
 * authorisation on every route), the broker session secret, the idempotency table, alarms, and the egress setting
 * (infra/egress.ts: by default a VPC with two NAT instances, so the broker sees two static IPs).
 */
import { CfnOutput, CfnParameter, Duration, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import type { CfnStage } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpApi, HttpMethod, HttpStage, LogGroupLogDestination } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpIamAuthorizer } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import * as sns from 'aws-cdk-lib/aws-sns';
import { NagSuppressions } from 'cdk-nag';
import type { Construct } from 'constructs';

import type { AnyOperation } from '../functions/contract/operation.js';
import { KILL_SWITCH } from '../functions/control-functions.js';
import { resolveNotifyOn } from '../functions/events/notification.js';
import { OPERATIONS } from '../functions/operations.js';
import { DEPLOYMENT_SETTINGS } from '../functions/runtime/config.js';
import { AuditArchive } from './audit-archive.js';
import { type BrokerSetup, resolveBrokerSetup } from './broker-setup.js';
import {
  EGRESS_CONTEXT_KEY,
  EGRESS_IP_DESCRIPTION,
  type EgressSetting,
  resolveEgress,
  StaticEgress,
} from './egress.js';
import {
  checkWebhookUrl,
  LifecycleEvents,
  ORDER_EVENTS_TABLE_ACTIONS,
  resolveWatcherEnabled,
  resolveWatcherSchedule,
  WATCHER_EVENTS_TABLE_ACTIONS,
} from './events.js';
import { GatewayFunction } from './gateway-function.js';
import { OAUTH_STATE_TABLE_ACTIONS, resolveEndOfDayLogout, SessionFunctions } from './session-functions.js';
import { expiringTable } from './tables.js';
import { resolveWebhookFormat } from './webhook-format.js';

/** Brokers of this API family accept 10 orders a second per user; order routes stay below that. */
export const ORDER_ROUTE_THROTTLE = { rateLimit: 8, burstLimit: 8 };
export const DEFAULT_ROUTE_THROTTLE = { rateLimit: 50, burstLimit: 100 };
/** Deployment settings that may come from CDK context (`-c name=value`) and go to the functions' environment. */
export const CONTEXT_SETTINGS = DEPLOYMENT_SETTINGS;
/** What the order functions' governor does on the control table: a consistent read and a conditional put. */
export const GOVERNOR_TABLE_ACTIONS = ['dynamodb:GetItem', 'dynamodb:PutItem'] as const;
/** The kill switch also turns the switch (an UpdateItem of the account's item). */
export const KILL_SWITCH_TABLE_ACTIONS = [...GOVERNOR_TABLE_ACTIONS, 'dynamodb:UpdateItem'] as const;
/** The kill switch's own routes: a sweep takes a while, and nobody needs to turn it twice a second. */
export const KILL_SWITCH_ROUTE_THROTTLE = { rateLimit: 1, burstLimit: 2 };
/** Long enough to sweep a few hundred orders at 8 a second (an HTTP caller's answer ends at API Gateway's 30 s). */
export const KILL_SWITCH_TIMEOUT = Duration.seconds(90);

export interface GatewayStackProps extends StackProps {
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
  /** Forward every event to this HTTPS URL (context `notifyWebhookUrl`, `notifyWebhookHeader`, `notifyWebhookSecretArn`). */
  notifyWebhookUrl?: string;
  notifyWebhookHeader?: string;
  notifyWebhookSecretArn?: string;
  /** `event` (default), `slack` or `telegram` (with `notifyTelegramChatId`): the body the webhook gets. */
  notifyWebhookFormat?: string;
  notifyTelegramChatId?: string;
  /** The detail-types the webhook gets (context `notifyOn`, comma-separated, or `all`); default DEFAULT_NOTIFY_ON. */
  notifyOn?: string;
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
  /** The five-year audit archive (S3 with Object Lock) the audit records of the log groups reach. */
  readonly audit: AuditArchive;
  private readonly brokerRateLimits?: BrokerSetup['rateLimits'];

  constructor(scope: Construct, id: string, props: GatewayStackProps = {}) {
    super(scope, id, props);
    this.egress = resolveEgress(props.egress, this.node.tryGetContext(EGRESS_CONTEXT_KEY));

    const broker = props.broker ?? resolveBrokerSetup({});
    this.brokerRateLimits = broker.rateLimits;
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
    this.idempotencyTable = expiringTable(this, 'IdempotencyTable', {
      partitionKey: 'id',
      timeToLiveAttribute: 'expiration',
      pointInTimeRecovery: true,
    });

    // Not an expiring table: the kill switch's state must outlive everything (the governor's log prunes itself).
    this.controlTable = new dynamodb.Table(this, 'ControlTable', {
      partitionKey: { name: 'pk', type: dynamodb.AttributeType.STRING },
      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      encryption: dynamodb.TableEncryption.AWS_MANAGED,
      removalPolicy: RemovalPolicy.DESTROY,
    });

    const accessLogs = new logs.LogGroup(this, 'ApiAccessLogs', {
      retention: logs.RetentionDays.ONE_MONTH,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    this.api = new HttpApi(this, 'Api', {
      apiName: 'gtt-gateway',
      description: 'gtt-gateway: GTT orders and sessions at a jData broker (one deployment, one account)',
      createDefaultStage: false,
    });
    const stage = new HttpStage(this, 'DefaultStage', {
      httpApi: this.api,
      stageName: '$default',
      autoDeploy: true,
      throttle: DEFAULT_ROUTE_THROTTLE,
      accessLogSettings: {
        destination: new LogGroupLogDestination(accessLogs),
        format: apigw.AccessLogFormat.jsonWithStandardFields(),
      },
    });

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
    const webhookUrl = props.notifyWebhookUrl ?? (context('notifyWebhookUrl') as string | undefined);
    const headerName = props.notifyWebhookHeader ?? (context('notifyWebhookHeader') as string | undefined);
    const headerSecretArn = props.notifyWebhookSecretArn ?? (context('notifyWebhookSecretArn') as string | undefined);
    if (Boolean(headerName) !== Boolean(headerSecretArn)) {
      throw new Error(
        "notifyWebhookHeader and notifyWebhookSecretArn go together: the header carries the secret's value",
      );
    }
    const webhookFormat = resolveWebhookFormat(
      props.notifyWebhookFormat ?? context('notifyWebhookFormat'),
      props.notifyTelegramChatId ?? context('notifyTelegramChatId'),
    );
    // Checked even without a webhook: a typo in notifyOn fails the synth with one line listing the detail-types.
    const notifyOn = resolveNotifyOn(props.notifyOn ?? context('notifyOn'));
    this.events = new LifecycleEvents(this, 'Events', {
      alarmAction,
      ...(webhookUrl
        ? {
            webhook: {
              url: checkWebhookUrl(String(webhookUrl)),
              ...(headerName && headerSecretArn ? { headerName, secretArn: headerSecretArn } : {}),
              ...webhookFormat,
              notifyOn,
            },
          }
        : {}),
    });
    this.staticEgress?.allowTableCalls(this.events.table, [
      ...new Set([...ORDER_EVENTS_TABLE_ACTIONS, ...WATCHER_EVENTS_TABLE_ACTIONS]),
    ]);
    this.staticEgress?.allowTableCalls(this.controlTable, [...KILL_SWITCH_TABLE_ACTIONS]);
    const authorizer = new HttpIamAuthorizer();
    const routeSettings: Record<string, { ThrottlingRateLimit: number; ThrottlingBurstLimit: number }> = {};

    for (const operation of OPERATIONS) {
      const gatewayFunction = this.addOperation(operation, brokerBaseUrl.valueAsString, {
        ...settings,
        BROKER_AUTH: brokerAuth,
      });
      this.functions.set(operation.name, gatewayFunction);
      const fn = gatewayFunction.function;

      this.api.addRoutes({
        path: operation.route.path,
        methods: [HttpMethod[operation.route.method]],
        integration: new HttpLambdaIntegration(`${operation.name}Integration`, fn),
        authorizer,
      });
      if (operation.kind === 'order') {
        routeSettings[`${operation.route.method} ${operation.route.path}`] = {
          ThrottlingRateLimit: ORDER_ROUTE_THROTTLE.rateLimit,
          ThrottlingBurstLimit: ORDER_ROUTE_THROTTLE.burstLimit,
        };
      }

      fn.metricErrors({ period: Duration.minutes(5) })
        .createAlarm(this, `${operation.name}Errors`, {
          alarmDescription: `${operation.name}: function errors (unhandled failures and direct-invocation errors)`,
          threshold: 1,
          evaluationPeriods: 1,
          treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
        })
        .addAlarmAction(alarmAction);
      fn.metricThrottles({ period: Duration.minutes(5) })
        .createAlarm(this, `${operation.name}Throttles`, {
          alarmDescription: `${operation.name}: invocations throttled by Lambda`,
          threshold: 1,
          evaluationPeriods: 1,
          treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
        })
        .addAlarmAction(alarmAction);

      new CfnOutput(this, `${operation.name}FunctionArn`, {
        value: fn.functionArn,
        exportName: `${this.stackName}-${operation.name}-Arn`,
        description: `Invoke directly (Step Functions, EventBridge) for ${operation.name}`,
      });
    }
    this.killSwitch = this.addKillSwitch(
      brokerBaseUrl.valueAsString,
      { ...settings, BROKER_AUTH: brokerAuth },
      authorizer,
      routeSettings,
      alarmAction,
    );
    this.session = new SessionFunctions(this, 'Session', {
      api: this.api,
      authorizer,
      sessionSecret: this.secret,
      ...(props.oauthAppSecretArn ? { oauthAppSecretArn: props.oauthAppSecretArn } : {}),
      brokerBaseUrl: brokerBaseUrl.valueAsString,
      brokerAuthorizeUrl: brokerAuthorizeUrl.valueAsString,
      brokerAuth,
      brokerLogin: broker.login,
      ...(broker.tokenUrl ? { brokerTokenUrl: broker.tokenUrl } : {}),
      ...(this.staticEgress
        ? {
            network: {
              vpc: this.staticEgress.vpc,
              subnets: this.staticEgress.functionSubnets,
              securityGroup: this.staticEgress.functionSecurityGroup,
            },
          }
        : {}),
      alarmAction,
      renewal: broker.totp,
      ...(resolveEndOfDayLogout(this.node.tryGetContext('endOfDayLogout')) === undefined
        ? {}
        : { endOfDayLogout: resolveEndOfDayLogout(this.node.tryGetContext('endOfDayLogout'))! }),
      routeSettings,
      eventBus: { name: this.events.bus.eventBusName, grantPublish: (role) => this.events.grantSessionFunction(role) },
    });
    // Checked even with the watcher off: a malformed expression is a mistake either way.
    const watcherSchedule = resolveWatcherSchedule(props.watcherSchedule ?? context('watcherSchedule'));
    if (resolveWatcherEnabled(props.watcher, context('watcher'))) {
      this.events.addWatcher(
        {
          brokerBaseUrl: brokerBaseUrl.valueAsString,
          brokerAuth,
          sessionSecret: this.secret,
          schedule: watcherSchedule,
          ...(this.staticEgress
            ? {
                network: {
                  vpc: this.staticEgress.vpc,
                  subnets: this.staticEgress.functionSubnets,
                  securityGroup: this.staticEgress.functionSecurityGroup,
                },
              }
            : {}),
        },
        alarmAction,
      );
    }
    this.events.addDashboard(OPERATIONS);
    // In the VPC every DynamoDB call goes through the gateway endpoint: the OAuth function's state table too.
    this.staticEgress?.allowTableCalls(this.session.stateTable, OAUTH_STATE_TABLE_ACTIONS);
    (stage.node.defaultChild as CfnStage).addPropertyOverride('RouteSettings', routeSettings);

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

    this.api
      .metricServerError({ period: Duration.minutes(5) })
      .createAlarm(this, 'Api5xx', {
        alarmDescription: 'gtt-gateway HTTP API: 5xx answers (broker unavailable, timeouts, configuration errors)',
        threshold: 5,
        evaluationPeriods: 1,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      })
      .addAlarmAction(alarmAction);

    new CfnOutput(this, 'ApiUrl', {
      value: this.api.apiEndpoint,
      description: 'Base URL of the HTTP API (SigV4-signed requests)',
    });
    new CfnOutput(this, 'BrokerSecretArn', {
      value: this.secret.secretArn,
      description: 'Put the broker session JSON here',
    });
    new CfnOutput(this, 'IdempotencyTableName', { value: this.idempotencyTable.tableName });
    new CfnOutput(this, 'AlarmTopicArn', { value: alarmTopic.topicArn });
    new CfnOutput(this, 'AuditBucketName', {
      value: this.audit.bucket.bucketName,
      description: 'Audit records (order actions, kill switch, session renewals), locked for 5 years',
    });
    this.session.addOutputs(this.api.apiEndpoint);
    this.events.addOutputs();
    if (this.staticEgress) {
      this.staticEgress.addresses.forEach(
        (eip, i) =>
          new CfnOutput(this, `EgressIp${i + 1}`, { value: eip.attrPublicIp, description: EGRESS_IP_DESCRIPTION }),
      );
      new CfnOutput(this, 'EgressSetting', {
        value: `${this.egress}: static egress, the broker sees only EgressIp1 and EgressIp2`,
        description: 'How the functions reach the broker (docs/egress.md)',
      });
    } else {
      new CfnOutput(this, 'EgressSetting', {
        value:
          'none: no static egress IP (Lambda shared addresses); brokers that require a registered static IP will reject orders',
        description:
          'How the functions reach the broker (docs/egress.md); deploy with -c egress=nat-instance for two static IPs',
      });
    }

    this.suppressNagFindings();
  }

  private addOperation(
    operation: AnyOperation,
    brokerBaseUrl: string,
    settings: Record<string, string>,
  ): GatewayFunction {
    const gatewayFunction = new GatewayFunction(this, operation.name, {
      entry: operation.id,
      description: `gtt-gateway: ${operation.summary} (${operation.route.method} ${operation.route.path})`,
      roleDescription: `gtt-gateway ${operation.name}: its log group, its secret${operation.broker === 'Logout' ? ' (read, and mark it logged out)' : ''}${operation.idempotency ? ', the idempotency table' : ''}${operation.lifecycle ? ', publish on the gateway bus, the events table' : ''}${operation.kind === 'order' ? ', the control table (order-rate governor)' : ''}`,
      logRetention: logs.RetentionDays.ONE_MONTH,
      environment: {
        BROKER_BASE_URL: brokerBaseUrl,
        BROKER_SECRET_ID: this.secret.secretArn,
        IDEMPOTENCY_TABLE_NAME: this.idempotencyTable.tableName,
        ...(operation.kind === 'order' ? { CONTROL_TABLE_NAME: this.controlTable.tableName } : {}),
        // The broker's own order rate (its preset), unless the deployment sets ORDER_RATE_* (in `settings`).
        ...(operation.kind === 'order' && this.brokerRateLimits
          ? {
              ORDER_RATE_PER_SECOND: String(this.brokerRateLimits.perSecond),
              ORDER_RATE_PER_MINUTE: String(this.brokerRateLimits.perMinute),
            }
          : {}),
        ...(operation.lifecycle ? this.events.publisherEnvironment() : {}),
        ...settings,
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
    });
    // Each function may read only the one secret.
    this.secret.grantRead(gatewayFunction.role);
    if (operation.broker === 'Logout') {
      // Logout marks the secret logged out (a new version without the token), so every function stops at once.
      gatewayFunction.role.addToPrincipalPolicy(
        new iam.PolicyStatement({
          sid: 'MarkSessionLoggedOut',
          actions: ['secretsmanager:PutSecretValue'],
          resources: [this.secret.secretArn],
        }),
      );
    }
    if (operation.idempotency) {
      // Exactly what Powertools' DynamoDB persistence layer calls.
      this.idempotencyTable.grant(
        gatewayFunction.role,
        'dynamodb:GetItem',
        'dynamodb:PutItem',
        'dynamodb:UpdateItem',
        'dynamodb:DeleteItem',
      );
    }
    if (operation.lifecycle) this.events.grantOrderFunction(gatewayFunction.role);
    // The governor reads the account's item and writes it back conditionally; nothing else.
    if (operation.kind === 'order') this.controlTable.grant(gatewayFunction.role, ...GOVERNOR_TABLE_ACTIONS);
    return gatewayFunction;
  }

  /**
   * The kill switch: one function on its three routes (IAM auth). It runs the operation table's own list and cancel
   * entries in-process, so it gets what an order function gets (the secret, the control table, the bus and the
   * events table) and may also turn the switch (UpdateItem).
   */
  private addKillSwitch(
    brokerBaseUrl: string,
    settings: Record<string, string>,
    authorizer: HttpIamAuthorizer,
    routeSettings: Record<string, { ThrottlingRateLimit: number; ThrottlingBurstLimit: number }>,
    alarmAction: SnsAction,
  ): GatewayFunction {
    const fn = new GatewayFunction(this, KILL_SWITCH.name, {
      entry: KILL_SWITCH.id,
      description: `gtt-gateway: ${KILL_SWITCH.summary}`,
      roleDescription:
        'gtt-gateway KillSwitch: its log group, its secret, the control table (turn the switch, governor permits), publish on the gateway bus, the events table',
      logRetention: logs.RetentionDays.ONE_MONTH,
      timeout: KILL_SWITCH_TIMEOUT,
      environment: {
        BROKER_BASE_URL: brokerBaseUrl,
        BROKER_SECRET_ID: this.secret.secretArn,
        // Only for the configuration check: the sweep's cancels carry no idempotency key, so it never touches it.
        IDEMPOTENCY_TABLE_NAME: this.idempotencyTable.tableName,
        CONTROL_TABLE_NAME: this.controlTable.tableName,
        ...(this.brokerRateLimits
          ? {
              ORDER_RATE_PER_SECOND: String(this.brokerRateLimits.perSecond),
              ORDER_RATE_PER_MINUTE: String(this.brokerRateLimits.perMinute),
            }
          : {}),
        ...this.events.publisherEnvironment(),
        ...settings,
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
    });
    this.secret.grantRead(fn.role);
    this.controlTable.grant(fn.role, ...KILL_SWITCH_TABLE_ACTIONS);
    this.events.grantOrderFunction(fn.role);
    for (const route of KILL_SWITCH.routes) {
      this.api.addRoutes({
        path: route.path,
        methods: [HttpMethod[route.method]],
        integration: new HttpLambdaIntegration(`${KILL_SWITCH.name}${route.method}Integration`, fn.function),
        authorizer,
      });
      if (route.method !== 'GET') {
        routeSettings[`${route.method} ${route.path}`] = {
          ThrottlingRateLimit: KILL_SWITCH_ROUTE_THROTTLE.rateLimit,
          ThrottlingBurstLimit: KILL_SWITCH_ROUTE_THROTTLE.burstLimit,
        };
      }
    }
    fn.function
      .metricErrors({ period: Duration.minutes(5) })
      .createAlarm(this, 'KillSwitchErrors', {
        alarmDescription: 'KillSwitch: function errors (the switch could not be turned, or the sweep failed)',
        threshold: 1,
        evaluationPeriods: 1,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      })
      .addAlarmAction(alarmAction);
    new CfnOutput(this, 'KillSwitchFunctionArn', {
      value: fn.function.functionArn,
      description: 'Invoke directly with {"action":"on"|"off"|"status"}; or POST/DELETE/GET /kill-switch',
    });
    return fn;
  }

  private suppressNagFindings(): void {
    for (const gatewayFunction of [
      this.killSwitch,
      ...this.functions.values(),
      ...this.session.functions.values(),
      ...(this.events.watcher ? [this.events.watcher] : []),
      ...(this.events.notifyFormatter ? [this.events.notifyFormatter] : []),
    ]) {
      NagSuppressions.addResourceSuppressions(
        gatewayFunction,
        [
          {
            id: 'AwsSolutions-L1',
            reason:
              'nodejs22.x is the runtime this project targets and tests (Node 20/22 compatible code); newer runtimes are adopted deliberately, not by default.',
          },
          {
            id: 'AwsSolutions-IAM5',
            reason:
              'X-Ray PutTraceSegments/PutTelemetryRecords support no resource-level permissions (AWS requires "*"); the log-stream wildcard is inside this function\'s own log group ARN. No wildcard is granted on any data resource.' +
              (this.staticEgress
                ? ' In the VPC: the ENI actions of AWSLambdaVPCAccessExecutionRole (Create/Delete/Describe network interfaces, Describe subnets, Assign/Unassign private IPs), which Lambda checks at function creation; DescribeNetworkInterfaces supports only "*".'
                : ''),
            appliesTo: ['Resource::*', { regex: '/^Resource::<.*Logs.*\\.Arn>:\\*$/g' }],
          },
        ],
        true,
      );
    }
    if (this.secret instanceof secretsmanager.Secret) {
      NagSuppressions.addResourceSuppressions(this.secret, [
        {
          id: 'AwsSolutions-SMG4',
          reason:
            "The broker's access token is issued by the broker's own login flow; Secrets Manager cannot rotate it. The trader puts a fresh token (README) and the functions re-read it.",
        },
      ]);
    }
  }
}
