/**
 * The HTTP API in front of the functions: access logs, the `$default` stage with its default throttling, IAM
 * authorisation, the per-route throttling (collected while the routes are added, written onto the stage at the end)
 * and the API's 5xx alarm. Functions that add to the stack (docs/architecture.md, the CDK app), so the construct ids stay
 * where they were.
 */
import { Duration, RemovalPolicy, type Stack } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import type { CfnStage } from 'aws-cdk-lib/aws-apigatewayv2';
import {
  HttpApi,
  HttpMethod,
  HttpRoute,
  HttpRouteKey,
  HttpStage,
  LogGroupLogDestination,
} from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpIamAuthorizer } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import { NagSuppressions } from 'cdk-nag';
import type { Construct } from 'constructs';

import { ORDER_ROUTE_THROTTLE } from '../../functions/base/definition/routes.js';
import { type FunctionDefinition, type Route, routesOf } from '../../functions/manifest/index.js';

/** Brokers of this API family accept 10 orders a second per user; order routes stay below that (the manifest's). */
export { ORDER_ROUTE_THROTTLE };
export const DEFAULT_ROUTE_THROTTLE = { rateLimit: 50, burstLimit: 100 };

/** The stage's RouteSettings by `METHOD /path`, filled while the routes are added. */
export type RouteSettings = Record<string, { ThrottlingRateLimit: number; ThrottlingBurstLimit: number }>;

export interface GatewayApi {
  api: HttpApi;
  stage: HttpStage;
  authorizer: HttpIamAuthorizer;
  routeSettings: RouteSettings;
}

/**
 * The API in `stack`; its access log group and its `$default` stage in `stageStack` (IAM authorisation on every
 * route added through it). The stage's per-route throttling names routes by key, and API Gateway refuses a key that
 * does not exist yet, so the stage's stack must come after every stack that adds routes (the gateway stacks'
 * dependencies, infra/stacks/gateway-stack.ts).
 */
export const addGatewayApi = (stack: Stack, stageStack: Stack = stack): GatewayApi => {
  const accessLogs = new logs.LogGroup(stageStack, 'ApiAccessLogs', {
    retention: logs.RetentionDays.ONE_MONTH,
    removalPolicy: RemovalPolicy.DESTROY,
  });
  const api = new HttpApi(stack, 'Api', {
    apiName: 'gtt-gateway',
    description: 'gtt-gateway: GTT orders and sessions at a jData broker (one deployment, one account)',
    createDefaultStage: false,
  });
  const stage = new HttpStage(stageStack, 'DefaultStage', {
    httpApi: api,
    stageName: '$default',
    autoDeploy: true,
    throttle: DEFAULT_ROUTE_THROTTLE,
    accessLogSettings: {
      destination: new LogGroupLogDestination(accessLogs),
      format: apigw.AccessLogFormat.jsonWithStandardFields(),
    },
  });
  return { api, stage, authorizer: new HttpIamAuthorizer(), routeSettings: {} };
};

/**
 * One route of the manifest to its function, made in `scope` (the function's own: the route, its integration and
 * the permission to invoke the function stay in the function's stack): IAM auth unless the route says otherwise
 * (the signal webhook, the MCP server, the OAuth callback, each with its cdk-nag finding suppressed and explained);
 * with a throttle, the route's own entry in the stage's RouteSettings.
 */
export const addRoute = (
  gateway: GatewayApi,
  route: Route,
  integrationId: string,
  fn: lambda.IFunction,
  scope: Construct,
): void => {
  const integration = new HttpLambdaIntegration(integrationId, fn);
  const httpRoute = new HttpRoute(scope, `Route${route.method}${route.path}`, {
    httpApi: gateway.api,
    routeKey: HttpRouteKey.with(route.path, HttpMethod[route.method]),
    integration,
    ...(route.auth === 'iam' ? { authorizer: gateway.authorizer } : {}),
  });
  if (route.anyMethod) addAnyMethodRoute(gateway, route, integration, scope);
  if (route.auth === 'token') {
    NagSuppressions.addResourceSuppressions(httpRoute, [
      {
        id: 'AwsSolutions-APIG4',
        reason:
          'The signal webhook: TradingView and ChartInk cannot sign with SigV4. The path holds a 256-bit token (stored only as its SHA-256, compared in constant time), with an optional source-address allowlist, a per-strategy rate limit and an 8 KiB body cap; it only records and queues a signal (no broker call) and is throttled at the stage.',
      },
    ]);
  }
  if (route.auth === 'bearer') {
    NagSuppressions.addResourceSuppressions(httpRoute, [
      {
        id: 'AwsSolutions-APIG4',
        reason:
          "The remote MCP server: assistants' MCP clients cannot sign with SigV4. Each request carries an assistant's bearer token (256 bits, stored only as its SHA-256, compared in constant time, rotatable and deletable over IAM); the token's scopes and limits decide the tools, every write is previewed then confirmed once, and the function reaches the broker only through the API's IAM routes with its own role. Throttled at the stage.",
      },
    ]);
  }
  if (route.auth === 'none') {
    NagSuppressions.addResourceSuppressions(httpRoute, [
      {
        id: 'AwsSolutions-APIG4',
        reason:
          "The OAuth callback: the broker's login page redirects the trader's browser here, which cannot sign with SigV4. It acts only for a login started by the IAM-authorised start route within the login window (once; its 256-bit state checked when the broker echoes it), exchanges each code at most once, writes only a session of this deployment's account, and is throttled to 2 rps.",
      },
    ]);
  }
  if (route.throttle) {
    gateway.routeSettings[`${route.method} ${route.path}`] = {
      ThrottlingRateLimit: route.throttle.rateLimit,
      ThrottlingBurstLimit: route.throttle.burstLimit,
    };
  }
};

/**
 * `ANY <path>` beside a route whose function answers the path's other methods itself (the MCP server's 405 with
 * `Allow: POST`): the same integration, the same authorisation (none: the function refuses before reading anything)
 * and the same throttle. API Gateway picks the route of the request's own method first, so POST still meets its route.
 */
const addAnyMethodRoute = (
  gateway: GatewayApi,
  route: Route,
  integration: HttpLambdaIntegration,
  scope: Construct,
): void => {
  if (route.auth !== 'bearer')
    throw new Error(`${route.method} ${route.path}: anyMethod is for the MCP server's bearer route only`);
  const anyRoute = new HttpRoute(scope, `RouteANY${route.path}`, {
    httpApi: gateway.api,
    routeKey: HttpRouteKey.with(route.path, HttpMethod.ANY),
    integration,
  });
  NagSuppressions.addResourceSuppressions(anyRoute, [
    {
      id: 'AwsSolutions-APIG4',
      reason:
        "The remote MCP server's other methods (GET, DELETE, ...): its function answers each 405 with `Allow: POST` before reading anything (no token, no body, no tool, no call to the API). Throttled at the stage as its POST route.",
    },
  ]);
  if (route.throttle) {
    gateway.routeSettings[`ANY ${route.path}`] = {
      ThrottlingRateLimit: route.throttle.rateLimit,
      ThrottlingBurstLimit: route.throttle.burstLimit,
    };
  }
};

/**
 * The execute-api ARNs (stage `$default`) of the IAM-signed routes of these operations: what a function that calls
 * the API with its own role may invoke (`api:invoke`). An operation that is not a signed route of the manifest fails
 * the synth.
 */
export const signedRouteArns = (
  api: HttpApi,
  functions: readonly FunctionDefinition[],
  operationIds: readonly string[],
): string[] =>
  operationIds.map((id) => {
    const found = routesOf(functions).find(({ route }) => route.operationId === id && route.auth === 'iam');
    if (!found) throw new Error(`api:invoke: ${id} is not a signed route of the manifest`);
    return api.arnForExecuteApi(found.route.method, found.route.path.replace(/\{\w+\}/g, '*'), '$default');
  });

/** Writes the collected per-route throttling onto the stage (the L2 stage has no RouteSettings of its own). */
export const applyRouteSettings = (gateway: GatewayApi): void => {
  (gateway.stage.node.defaultChild as CfnStage).addPropertyOverride('RouteSettings', gateway.routeSettings);
};

/** The API's 5xx answers, five in five minutes. */
export const addApiAlarm = (stack: Stack, api: HttpApi, alarmAction: cloudwatch.IAlarmAction): void => {
  api
    .metricServerError({ period: Duration.minutes(5) })
    .createAlarm(stack, 'Api5xx', {
      alarmDescription: 'gtt-gateway HTTP API: 5xx answers (broker unavailable, timeouts, configuration errors)',
      threshold: 5,
      evaluationPeriods: 1,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    })
    .addAlarmAction(alarmAction);
};
