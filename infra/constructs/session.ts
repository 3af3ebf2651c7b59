/**
 * The session lifecycle in the stack, built from the table in functions/session-functions.ts: the OAuth function
 * on its two routes (the callback is the one route without IAM auth), the optional TOTP renewal and the health
 * check on EventBridge Scheduler in India time, their secrets (each readable only by its function), the OAuth
 * state table and the SessionAlive alarm.
 */
import { CfnOutput, Duration, Stack, TimeZone } from 'aws-cdk-lib';
import type { HttpApi, IHttpRouteAuthorizer } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpMethod } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as scheduler from 'aws-cdk-lib/aws-scheduler';
import * as targets from 'aws-cdk-lib/aws-scheduler-targets';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';

import { environmentOf } from '../../functions/runtime/env.js';
import { SERVICE_NAME } from '../../functions/schemas/names.js';
import { END_OF_DAY_LOGOUT_CRON, SESSION_FUNCTIONS, type SessionFunction } from '../../functions/session-functions.js';
import { accountOf, metricNamespaceOf } from '../settings/accounts.js';
import { addErrorsAlarm, GatewayFunction, type GatewayFunctionNetwork } from './gateway-function.js';
import { expiringTable } from './tables.js';

/**
 * `-c endOfDayLogout`: `on` (the default: 16:00 India time on weekdays, after NSE's close), `off`, or an EventBridge
 * Scheduler cron(...) in India time (an MCX trader logs out after 23:30: `cron(45 23 ? * MON-FRI *)`).
 */
export const resolveEndOfDayLogout = (value: unknown): string | undefined => {
  const text = value === undefined || value === null ? 'on' : String(value).trim();
  if (text === 'off') return undefined;
  if (text === 'on') return END_OF_DAY_LOGOUT_CRON;
  if (/^cron\(.+\)$/.test(text)) return text;
  throw new Error(`endOfDayLogout must be on, off or a cron(...) expression (India time), got ${JSON.stringify(text)}`);
};

/** The callback is hit by one browser once a morning: keep it far below anything abusive. */
export const CALLBACK_ROUTE_THROTTLE = { rateLimit: 2, burstLimit: 5 };
/** What the OAuth function does with its state table (functions/session/oauth-state.ts): conditional put and delete. */
export const OAUTH_STATE_TABLE_ACTIONS = ['dynamodb:PutItem', 'dynamodb:DeleteItem'];
/** Scheduled runs: a few retries within ten minutes, so a late run cannot land after the market opens. */
export const SCHEDULE_RETRY = { retryAttempts: 2, maxEventAge: Duration.minutes(10) };

/**
 * LambdaInvoke, but the scheduler role may invoke the function's unqualified ARN only: the stock target grants
 * `<arn>:*` too (every version and alias), which the schedule never calls.
 */
export class InvokeThisFunctionOnly extends targets.LambdaInvoke {
  constructor(
    private readonly target: lambda.IFunction,
    props: targets.ScheduleTargetBaseProps,
  ) {
    super(target, props);
  }

  protected override addTargetActionToRole(role: iam.IRole): void {
    role.addToPrincipalPolicy(
      new iam.PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: [this.target.functionArn] }),
    );
  }
}

export interface SessionFunctionsProps {
  api: HttpApi;
  authorizer: IHttpRouteAuthorizer;
  sessionSecret: secretsmanager.ISecret;
  /** Use an existing OAuth app secret (`-c oauthAppSecretArn=...`) instead of creating one. */
  oauthAppSecretArn?: string;
  brokerBaseUrl: string;
  brokerAuthorizeUrl: string;
  brokerAuth: string;
  /** The browser login's exchange: GenAcsTok (`oauth`) or Flattrade's token URL (`flattrade`, with brokerTokenUrl). */
  brokerLogin: string;
  brokerTokenUrl?: string;
  network?: GatewayFunctionNetwork;
  alarmAction: SnsAction;
  /** `totp`: add the scheduled QuickAuth renewal (classic deployments). */
  renewal: boolean;
  /** The end-of-day logout's schedule (India time), or undefined to leave it out (`-c endOfDayLogout=off`). */
  endOfDayLogout?: string;
  /** Route settings of the stage, to which the callback's throttle is added. */
  routeSettings: Record<string, { ThrottlingRateLimit: number; ThrottlingBurstLimit: number }>;
  /** The lifecycle bus: the functions that write a token publish `Session Renewed` there. */
  eventBus?: { name: string; grantPublish(role: iam.IRole): void };
}

export class SessionFunctions extends Construct {
  readonly functions = new Map<SessionFunction['name'], GatewayFunction>();
  readonly oauthAppSecret: secretsmanager.ISecret;
  readonly loginSecret?: secretsmanager.Secret;
  readonly stateTable: dynamodb.Table;

  constructor(scope: Construct, id: string, props: SessionFunctionsProps) {
    super(scope, id);
    this.oauthAppSecret = props.oauthAppSecretArn
      ? secretsmanager.Secret.fromSecretCompleteArn(this, 'OAuthApp', props.oauthAppSecretArn)
      : new secretsmanager.Secret(this, 'OAuthApp', {
          description:
            'gtt-gateway OAuth app at the broker: JSON {"clientId","secretCode","uid","actid"?}; readable only by the OAuth function',
          // A placeholder until the trader puts the app's values (docs/deploying.md, Going live).
          generateSecretString: {
            secretStringTemplate: JSON.stringify({ clientId: 'SET-ME', uid: 'SET-ME' }),
            generateStringKey: 'secretCode',
            excludePunctuation: true,
          },
        });
    if (props.renewal) {
      this.loginSecret = new secretsmanager.Secret(this, 'Login', {
        description:
          'gtt-gateway TOTP login: JSON {"uid","password","totpSeed","apiSecret","vendorCode"?}; readable only by SessionRenewal',
        generateSecretString: {
          secretStringTemplate: JSON.stringify({ uid: 'SET-ME', totpSeed: 'SET-ME', apiSecret: 'SET-ME' }),
          generateStringKey: 'password',
        },
      });
    }
    this.stateTable = expiringTable(this, 'OAuthStateTable', {
      partitionKey: 'state',
      timeToLiveAttribute: 'expiresAt',
      pointInTimeRecovery: false,
    });

    for (const spec of SESSION_FUNCTIONS) {
      if (spec.name === 'SessionRenewal' && !props.renewal) continue;
      if (spec.name === 'SessionLogout' && props.endOfDayLogout === undefined) continue;
      const fn = this.addFunction(spec, props);
      this.functions.set(spec.name, fn);
    }
    this.suppressNagFindings();
  }

  private addFunction(spec: SessionFunction, props: SessionFunctionsProps): GatewayFunction {
    const secretId =
      spec.credentials === 'oauthApp'
        ? this.oauthAppSecret
        : spec.credentials === 'login'
          ? this.loginSecret
          : undefined;
    const gatewayFunction = new GatewayFunction(this, spec.name, {
      entry: spec.id,
      description: `gtt-gateway: ${spec.summary}`,
      roleDescription: `gtt-gateway ${spec.name}: its log group, ${spec.sessionSecret === 'write' ? 'read and write' : 'read'} the session secret${secretId ? ', read its own credentials' : ''}${spec.oauthStateTable ? ', the OAuth state table' : ''}`,
      logRetention: logs.RetentionDays.ONE_MONTH,
      environment: environmentOf({
        brokerBaseUrl: props.brokerBaseUrl,
        brokerSecretId: props.sessionSecret.secretArn,
        brokerAuth: props.brokerAuth,
        ...(spec.credentials === 'oauthApp'
          ? {
              oauthAppSecretId: this.oauthAppSecret.secretArn,
              brokerAuthorizeUrl: props.brokerAuthorizeUrl,
              brokerLogin: props.brokerLogin,
              brokerTokenUrl: props.brokerTokenUrl || undefined,
            }
          : {}),
        loginSecretId: spec.credentials === 'login' && this.loginSecret ? this.loginSecret.secretArn : undefined,
        oauthStateTableName: spec.oauthStateTable ? this.stateTable.tableName : undefined,
        // The token writers (a login with credentials) publish Session Renewed; the end-of-day logout writes no token.
        eventBusName:
          spec.sessionSecret === 'write' && spec.credentials && props.eventBus ? props.eventBus.name : undefined,
      }),
      ...(props.network ? { network: props.network } : {}),
    });
    const role = gatewayFunction.role;
    props.sessionSecret.grantRead(role);
    if (spec.sessionSecret === 'write') {
      // Exactly the call functions/session/secrets.ts makes; grantWrite would add UpdateSecret (description, KMS key)
      // and UpdateSecretVersionStage, which a login never needs.
      role.addToPrincipalPolicy(
        new iam.PolicyStatement({
          sid: 'WriteSessionSecret',
          actions: ['secretsmanager:PutSecretValue'],
          resources: [props.sessionSecret.secretArn],
        }),
      );
    }
    secretId?.grantRead(role);
    if (spec.sessionSecret === 'write' && spec.credentials) props.eventBus?.grantPublish(role);
    if (spec.oauthStateTable) this.stateTable.grant(role, ...OAUTH_STATE_TABLE_ACTIONS);
    const fn = gatewayFunction.function;

    for (const route of spec.routes) {
      const [httpRoute] = props.api.addRoutes({
        path: route.path,
        methods: [HttpMethod[route.method]],
        integration: new HttpLambdaIntegration(`${spec.name}${route.path.split('/').pop()}Integration`, fn),
        ...(route.auth === 'iam' ? { authorizer: props.authorizer } : {}),
      });
      if (route.auth === 'none') {
        NagSuppressions.addResourceSuppressions(httpRoute!, [
          {
            id: 'AwsSolutions-APIG4',
            reason:
              "The OAuth callback: the broker's login page redirects the trader's browser here, which cannot sign with SigV4. It acts only for a login started by the IAM-authorised start route within the login window (once; its 256-bit state checked when the broker echoes it), exchanges each code at most once, writes only a session of this deployment's account, and is throttled to 2 rps.",
          },
        ]);
        props.routeSettings[`${route.method} ${route.path}`] = {
          ThrottlingRateLimit: CALLBACK_ROUTE_THROTTLE.rateLimit,
          ThrottlingBurstLimit: CALLBACK_ROUTE_THROTTLE.burstLimit,
        };
      }
    }
    if (spec.schedule) {
      // Its own role: it may invoke this one function (its unqualified ARN) and nothing else.
      const role = new iam.Role(this, `${spec.name}SchedulerRole`, {
        assumedBy: new iam.ServicePrincipal('scheduler.amazonaws.com'),
        description: `gtt-gateway: EventBridge Scheduler may invoke ${spec.name} only`,
      });
      new scheduler.Schedule(this, `${spec.name}Schedule`, {
        description: `gtt-gateway: ${spec.schedule.description} (India time)`,
        // The cron is India time: 08:15 IST stays 08:15 IST whatever the region's clock.
        schedule: scheduler.ScheduleExpression.expression(
          spec.name === 'SessionLogout' ? (props.endOfDayLogout ?? spec.schedule.cron) : spec.schedule.cron,
          TimeZone.ASIA_KOLKATA,
        ),
        // Exactly on time: a login or a check spread over a window could land after the market opens.
        timeWindow: scheduler.TimeWindow.off(),
        target: new InvokeThisFunctionOnly(fn, { role, ...SCHEDULE_RETRY }),
      });
    }
    addErrorsAlarm(
      this,
      `${spec.name}Errors`,
      fn,
      { description: `${spec.name}: function errors (a failed login or an unreadable secret)`, threshold: 1 },
      props.alarmAction,
    );
    if (spec.name === 'SessionHealth') {
      new cloudwatch.Metric({
        namespace: metricNamespaceOf(accountOf(this.node.tryGetContext('account'))),
        metricName: 'SessionAlive',
        dimensionsMap: { service: SERVICE_NAME },
        statistic: 'Minimum',
        period: Duration.minutes(5),
      })
        .createAlarm(this, 'SessionDead', {
          alarmDescription:
            'The broker session is dead before the market opens: log in again (docs/deploying.md, Going live)',
          threshold: 1,
          comparisonOperator: cloudwatch.ComparisonOperator.LESS_THAN_THRESHOLD,
          evaluationPeriods: 1,
          // The check runs once each weekday morning: between runs (nights, weekends) there is no data, which is not
          // a dead session. A run that publishes nothing (a crash, a timeout) trips this function's Errors alarm.
          treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
        })
        .addAlarmAction(props.alarmAction);
    }
    return gatewayFunction;
  }

  /** Outputs for going live (docs/deploying.md). */
  addOutputs(apiUrl: string): void {
    const stack = Stack.of(this);
    new CfnOutput(stack, 'OAuthStartUrl', {
      value: `${apiUrl}/session/oauth/start`,
      description: 'Each morning: GET this (SigV4) and open the authorizeUrl it answers',
    });
    new CfnOutput(stack, 'OAuthCallbackUrl', {
      value: `${apiUrl}/session/oauth/callback`,
      description: "Register this as the redirect URL of your broker's API app",
    });
    new CfnOutput(stack, 'OAuthAppSecretArn', {
      value: this.oauthAppSecret.secretArn,
      description: 'Put {"clientId","secretCode","uid"} of your broker app here',
    });
    if (this.loginSecret) {
      new CfnOutput(stack, 'LoginSecretArn', {
        value: this.loginSecret.secretArn,
        description: 'Put {"uid","password","totpSeed","apiSecret"} here',
      });
    }
  }

  private suppressNagFindings(): void {
    for (const secret of [this.oauthAppSecret, this.loginSecret]) {
      // Only the secrets this stack creates (an imported one is not a resource of the template).
      if (!(secret instanceof secretsmanager.Secret)) continue;
      NagSuppressions.addResourceSuppressions(secret, [
        {
          id: 'AwsSolutions-SMG4',
          reason:
            'Broker-issued credentials (app secret, password, TOTP seed): only the broker can change them, so Secrets Manager cannot rotate them.',
        },
      ]);
    }
    NagSuppressions.addResourceSuppressions(this.stateTable, [
      {
        id: 'AwsSolutions-DDB3',
        reason:
          'OAuth state values live ten minutes and are single use: there is nothing to recover to a point in time.',
      },
    ]);
  }
}
