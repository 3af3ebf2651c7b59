/**
 * The example workflow's state machine definition: place a GTT order, optionally protect it with a two-leg OCO
 * (target and stop-loss), then list the pending orders. Built from
 * the operation table and the handlers' own error names, so what it retries and catches is what they throw.
 */
import { App, Duration, Stack } from 'aws-cdk-lib';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import * as tasks from 'aws-cdk-lib/aws-stepfunctions-tasks';
import type { Construct } from 'constructs';

import { errorName } from '../../functions/base/contract/errors.js';

/** Errors after which a repeat cannot act twice: the broker did not execute the call, or it is still in flight. */
export const PLACE_RETRY_ERRORS = [
  errorName('RATE_LIMITED'),
  errorName('GATEWAY_BUSY'),
  errorName('IDEMPOTENCY_IN_PROGRESS'),
];
/**
 * How a place is retried: RATE_LIMITED may ask for up to a minute (the governor's per-minute window), so six
 * attempts 1, 2, 4, 8, 16 and 32 s apart (about a minute in all), jittered so parallel executions do not retry in step.
 */
export const PLACE_RETRY = {
  interval: Duration.seconds(1),
  backoffRate: 2,
  maxAttempts: 6,
  maxDelay: Duration.seconds(32),
  jitterStrategy: sfn.JitterType.FULL,
};
/**
 * A list changes nothing, so it may be retried after timeouts and outages too. A place may not: after a timeout
 * its outcome is unknown, and with the idempotency key a retry would only replay that unknown outcome.
 */
export const LIST_RETRY_ERRORS = [
  errorName('BROKER_TIMEOUT'),
  errorName('BROKER_UNAVAILABLE'),
  errorName('RATE_LIMITED'),
];
export const SESSION_EXPIRED = errorName('SESSION_EXPIRED');

export const STATE_NAMES = {
  addKey: 'Add idempotency key',
  place: 'Place GTT order',
  hasOco: 'OCO requested?',
  addOcoKey: 'Add OCO idempotency key',
  placeOco: 'Place OCO order',
  list: 'List pending GTT orders',
  sessionExpired: 'Broker session expired',
  done: 'Done',
} as const;

/** The operation (function) behind each task state: what a local run invokes for it. */
export const TASK_OPERATIONS = {
  [STATE_NAMES.place]: 'PlaceGTTOrder',
  [STATE_NAMES.placeOco]: 'PlaceOCOOrder',
  [STATE_NAMES.list]: 'GetPendingGTTOrder',
} as const;

export interface WorkflowFunctions {
  place: lambda.IFunction;
  placeOco: lambda.IFunction;
  listPending: lambda.IFunction;
}

/**
 * The ASL the stack deploys, rendered offline with plain function ARNs (`arn:aws:lambda:us-east-1:000000000000:
 * function:<Operation>`): what `npm run workflow` and the tests run with aws-local-stepfunctions.
 */
export const renderWorkflowDefinition = (): Record<string, unknown> => {
  const s = new Stack(new App(), 'WorkflowRender', { env: { account: '000000000000', region: 'us-east-1' } });
  const fn = (id: string, name: string) =>
    lambda.Function.fromFunctionArn(s, id, `arn:aws:lambda:us-east-1:000000000000:function:${name}`);
  const fns = {
    place: fn('Place', 'PlaceGTTOrder'),
    placeOco: fn('PlaceOcoFn', 'PlaceOCOOrder'),
    listPending: fn('List', 'GetPendingGTTOrder'),
  };
  // The state graph's JSON is what the state machine's DefinitionString holds (a test compares the two), without a
  // whole synth: about 0.1 s instead of 3 s for each `npm run workflow`.
  const graph = new sfn.StateGraph(buildWorkflowDefinition(s, fns).startState, 'gtt-gateway example workflow');
  return s.resolve(graph.toGraphJson()) as Record<string, unknown>;
};

/**
 * Execution input (infra/workflow/workflow-input.ts, docs/workflow/input.schema.json): `{"order": {exch, tsym, qty, prc, prd, trantype, prctyp, ret, ai_t, d}, "oco"?: {exch, tsym,
 * target: {trigger, order}, stopLoss: {trigger, order}}}`. The idempotency keys are the execution name (and
 * `<name>-oco`), so re-running a failed execution under the same name can never place either twice.
 */
export const buildWorkflowDefinition = (scope: Construct, fns: WorkflowFunctions): sfn.IChainable => {
  const sessionExpired = new sfn.Fail(scope, 'SessionExpiredFail', {
    stateName: STATE_NAMES.sessionExpired,
    error: SESSION_EXPIRED,
    cause: 'Store a fresh broker access token in the gateway secret, then re-run this execution under the same name.',
  });

  // The place payload is the order plus `idempotencyKey` = the execution name.
  const withKey = new sfn.Pass(scope, 'AddIdempotencyKey', {
    stateName: STATE_NAMES.addKey,
    // The rest of the input (an optional `oco`) stays: the request goes beside it.
    resultPath: '$.placeRequest',
    parameters: {
      'value.$':
        'States.JsonMerge($.order, States.StringToJson(States.Format(\'\\{"idempotencyKey":"{}"\\}\', $$.Execution.Name)), false)',
    },
  });

  const place = new tasks.LambdaInvoke(scope, 'PlaceOrder', {
    stateName: STATE_NAMES.place,
    lambdaFunction: fns.place,
    payloadResponseOnly: true,
    inputPath: '$.placeRequest.value',
    resultPath: '$.placed',
    retryOnServiceExceptions: false,
  })
    .addRetry({ errors: PLACE_RETRY_ERRORS, ...PLACE_RETRY })
    .addCatch(sessionExpired, { errors: [SESSION_EXPIRED], resultPath: '$.error' });

  const withOcoKey = new sfn.Pass(scope, 'AddOcoIdempotencyKey', {
    stateName: STATE_NAMES.addOcoKey,
    resultPath: '$.ocoRequest',
    parameters: {
      'value.$':
        'States.JsonMerge($.oco, States.StringToJson(States.Format(\'\\{"idempotencyKey":"{}-oco"\\}\', $$.Execution.Name)), false)',
    },
  });
  const placeOco = new tasks.LambdaInvoke(scope, 'PlaceOco', {
    stateName: STATE_NAMES.placeOco,
    lambdaFunction: fns.placeOco,
    payloadResponseOnly: true,
    inputPath: '$.ocoRequest.value',
    resultPath: '$.ocoPlaced',
    retryOnServiceExceptions: false,
  })
    .addRetry({ errors: PLACE_RETRY_ERRORS, ...PLACE_RETRY })
    .addCatch(sessionExpired, { errors: [SESSION_EXPIRED], resultPath: '$.error' });

  const list = new tasks.LambdaInvoke(scope, 'ListPending', {
    stateName: STATE_NAMES.list,
    lambdaFunction: fns.listPending,
    payloadResponseOnly: true,
    payload: sfn.TaskInput.fromObject({}),
    resultPath: '$.pending',
    retryOnServiceExceptions: false,
  })
    .addRetry({ errors: LIST_RETRY_ERRORS, interval: Duration.seconds(1), backoffRate: 2, maxAttempts: 3 })
    .addCatch(sessionExpired, { errors: [SESSION_EXPIRED], resultPath: '$.error' });

  list.next(new sfn.Succeed(scope, 'Done', { stateName: STATE_NAMES.done }));
  const hasOco = new sfn.Choice(scope, 'HasOco', { stateName: STATE_NAMES.hasOco })
    .when(sfn.Condition.isPresent('$.oco'), withOcoKey.next(placeOco).next(list))
    .otherwise(list);
  return withKey.next(place).next(hasOco);
};
