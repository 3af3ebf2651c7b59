/**
 * The session lifecycle in the stack, built from the manifest's session functions (functions/session/definitions.ts)
 * through infra/constructs/manifest-function.ts: the OAuth function on its two routes (the callback is the one
 * route without IAM auth), the optional TOTP renewal, the health check and the end-of-day logout on EventBridge
 * Scheduler in India time; their secrets (each readable only by its function), the OAuth state table and the
 * SessionAlive alarm.
 */
import { CfnOutput, Duration, Stack } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';

import { SERVICE_NAME } from '../../functions/base/schemas/names.js';
import { type FunctionDefinition, FUNCTIONS, scheduleOf } from '../../functions/manifest/index.js';
import { END_OF_DAY_LOGOUT_CRON, SESSION_HEALTH } from '../../functions/session/definitions.js';
import { accountOf, metricNamespaceOf } from '../settings/accounts.js';
import type { GatewayFunction } from './gateway-function.js';
import { addManifestFunction, type FunctionWiring, isDeployed } from './manifest-function.js';
import { expiringTable } from './tables.js';

export { OAUTH_STATE_TABLE_ACTIONS } from './grants.js';

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

export interface SessionFunctionsProps {
  /** The stack's values and resources; the session's own (its secrets, its state table) are added here. */
  wiring: FunctionWiring;
  /** Use an existing OAuth app secret (`-c oauthAppSecretArn=...`) instead of creating one. */
  oauthAppSecretArn?: string;
  brokerAuthorizeUrl: string;
  /** The browser login's exchange: GenAcsTok (`oauth`) or Flattrade's token URL (`flattrade`, with brokerTokenUrl). */
  brokerLogin: string;
  brokerTokenUrl?: string;
  /** The end-of-day logout's schedule (India time); deployed when `wiring.deployed.endOfDayLogout`. */
  endOfDayLogout?: string;
  /** The definitions whose `notes.home` is `session` are built here; default the manifest's. */
  functions?: readonly FunctionDefinition[];
}

export class SessionFunctions extends Construct {
  readonly functions = new Map<string, GatewayFunction>();
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
          // A placeholder until the trader puts the app's values (docs/reference/deploying.md, Going live).
          generateSecretString: {
            secretStringTemplate: JSON.stringify({ clientId: 'SET-ME', uid: 'SET-ME' }),
            generateStringKey: 'secretCode',
            excludePunctuation: true,
          },
        });
    if (props.wiring.deployed.totpRenewal) {
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

    const wiring: FunctionWiring = {
      ...props.wiring,
      values: {
        ...props.wiring.values,
        oauthAppSecretId: this.oauthAppSecret.secretArn,
        brokerAuthorizeUrl: props.brokerAuthorizeUrl,
        brokerLogin: props.brokerLogin,
        brokerTokenUrl: props.brokerTokenUrl || undefined,
        loginSecretId: this.loginSecret?.secretArn,
        oauthStateTableName: this.stateTable.tableName,
        // The login window: the catalogue's default (10 minutes) until a deployment needs another.
        oauthStateTtlSeconds: undefined,
      },
      resources: {
        ...props.wiring.resources,
        oauthAppSecret: this.oauthAppSecret,
        ...(this.loginSecret ? { loginSecret: this.loginSecret } : {}),
        oauthStateTable: this.stateTable,
      },
    };
    for (const entry of props.functions ?? FUNCTIONS) {
      if (entry.notes.home !== 'session' || !isDeployed(entry, wiring)) continue;
      const setting = scheduleOf(entry)?.setting;
      // The end-of-day logout's time is the deployment's setting (`-c endOfDayLogout=cron(...)`) when it has one.
      const fn = addManifestFunction(
        this,
        entry,
        wiring,
        setting === 'endOfDayLogout' && props.endOfDayLogout ? { scheduleExpression: props.endOfDayLogout } : {},
      );
      this.functions.set(entry.name, fn);
      if (entry.name === SESSION_HEALTH.name) this.addSessionDeadAlarm(wiring);
    }
    this.suppressNagFindings();
  }

  private addSessionDeadAlarm(wiring: FunctionWiring): void {
    new cloudwatch.Metric({
      namespace: metricNamespaceOf(accountOf(this.node.tryGetContext('account'))),
      metricName: 'SessionAlive',
      dimensionsMap: { service: SERVICE_NAME },
      statistic: 'Minimum',
      period: Duration.minutes(5),
    })
      .createAlarm(this, 'SessionDead', {
        alarmDescription:
          'The broker session is dead before the market opens: log in again (docs/reference/deploying.md, Going live)',
        threshold: 1,
        comparisonOperator: cloudwatch.ComparisonOperator.LESS_THAN_THRESHOLD,
        evaluationPeriods: 1,
        // The check runs once each weekday morning: between runs (nights, weekends) there is no data, which is not
        // a dead session. A run that publishes nothing (a crash, a timeout) trips this function's Errors alarm.
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      })
      .addAlarmAction(wiring.alarmAction);
  }

  /** Outputs for going live (docs/reference/deploying.md). */
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
