/**
 * The example state machine's definition, exactly as the stack builds it, run locally with aws-local-stepfunctions
 * against the real handlers, the broker emulator, dynalite and the local Secrets Manager endpoint.
 */
import { readFileSync } from 'node:fs';

import { Ajv2020 } from 'ajv/dist/2020.js';
import { App, CfnWaitConditionHandle, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import {
  EXAMPLE_INPUT,
  startExecutionCommand,
  WorkflowExampleStack,
} from '../../infra/stacks/workflow-example-stack.js';
import {
  buildWorkflowDefinition,
  LIST_RETRY_ERRORS,
  PLACE_RETRY_ERRORS,
  renderWorkflowDefinition,
  STATE_NAMES,
} from '../../infra/workflow/workflow.js';
import {
  WORKFLOW_INPUT_SCHEMA_FILE,
  workflowInputJsonSchemaText,
  workflowInputSchema,
} from '../../infra/workflow/workflow-input.js';
import { lambdaContext } from '../../local/lambda-context.js';
import { type LocalStack, startLocalStack } from '../../local/run-local.js';
import { type EmulatorControl, emulatorControl } from '../support/emulator-control.js';
import { SAMPLE_ORDER } from '../support/sample-order.js';

// aws-local-stepfunctions 3 uses Promise.withResolvers (Node 22); Node 20 needs this one-line polyfill.
(Promise as unknown as { withResolvers?: unknown }).withResolvers ??= <T>() => { let resolve!: (v: T) => void; let reject!: (e: unknown) => void; const promise = new Promise<T>((res, rej) => { resolve = res; reject = rej; }); return { promise, resolve, reject }; }; // prettier-ignore

const { StateMachine } = await import('aws-local-stepfunctions');

let stack: LocalStack;
let control: EmulatorControl;
let definition: Record<string, unknown>;

const arn = (name: string) => `arn:aws:lambda:us-east-1:000000000000:function:${name}`;
const order = SAMPLE_ORDER;

beforeAll(async () => {
  stack = await startLocalStack({ brokerTimeoutMs: 500 });
  control = emulatorControl(stack.emulator.url);
  definition = renderWorkflowDefinition();
});
afterAll(async () => {
  await stack?.close();
});
beforeEach(async () => {
  await control.reset();
});

const oco = {
  exch: 'NSE',
  tsym: 'M&M-EQ',
  target: { trigger: '1600', order: { trantype: 'S', prctyp: 'LMT', qty: 1, prc: '1598', prd: 'C' } },
  stopLoss: { trigger: '1400', order: { trantype: 'S', prctyp: 'MKT', qty: 1, prd: 'C' } },
};

const run = async (executionName: string, input: Record<string, unknown> = { order }) => {
  const machine = new StateMachine(definition as never, { validationOptions: { checkPaths: false } });
  const local = (name: string) => (payload: unknown) => stack.handlers.get(name)!(payload, lambdaContext(name));
  const execution = machine.run(
    input as never,
    {
      overrides: {
        taskResourceLocalHandlers: {
          [STATE_NAMES.place]: local('PlaceGTTOrder'),
          [STATE_NAMES.placeOco]: local('PlaceOCOOrder'),
          [STATE_NAMES.list]: local('GetPendingGTTOrder'),
        },
        retryIntervalOverrides: { [STATE_NAMES.place]: 10, [STATE_NAMES.placeOco]: 10, [STATE_NAMES.list]: 10 },
      },
      context: { Execution: { Name: executionName, Input: input } },
    } as never,
  );
  try {
    return { ok: true as const, output: (await execution.result) as Record<string, unknown> };
  } catch (error) {
    return { ok: false as const, error: error as Error & { cause?: unknown } };
  }
};

describe('example workflow (local Step Functions)', () => {
  it('retries and catches exactly the error names the handlers throw', () => {
    const states = definition.States as Record<
      string,
      { Retry?: { ErrorEquals: string[] }[]; Catch?: { ErrorEquals: string[] }[] }
    >;
    expect(states[STATE_NAMES.place]!.Retry![0]!.ErrorEquals).toEqual(PLACE_RETRY_ERRORS);
    // RateLimited may ask for up to a minute (the governor's minute window): about a minute of jittered retries.
    expect(PLACE_RETRY_ERRORS).toContain('RateLimited');
    // Nothing was sent: the gateway's own steps left no time to send it.
    expect(PLACE_RETRY_ERRORS).toContain('GatewayBusy');
    expect(states[STATE_NAMES.place]!.Retry![0]).toMatchObject({
      IntervalSeconds: 1,
      BackoffRate: 2,
      MaxAttempts: 6,
      MaxDelaySeconds: 32,
      JitterStrategy: 'FULL',
    });
    expect(PLACE_RETRY_ERRORS).not.toContain('BrokerTimeout');
    expect(states[STATE_NAMES.list]!.Retry![0]!.ErrorEquals).toEqual(LIST_RETRY_ERRORS);
    expect(states[STATE_NAMES.place]!.Catch![0]!.ErrorEquals).toEqual(['SessionExpired']);
    // The OCO is placed like the single order: retried only where the broker certainly did not act.
    expect(states[STATE_NAMES.placeOco]!.Retry).toEqual(states[STATE_NAMES.place]!.Retry);
    expect(states[STATE_NAMES.placeOco]!.Catch).toEqual(states[STATE_NAMES.place]!.Catch);
    // payloadResponseOnly: the state's resource is the PlaceOCOOrder function itself.
    expect((states[STATE_NAMES.placeOco] as { Resource?: string }).Resource).toBe(arn('PlaceOCOOrder'));
  });

  it('places with the execution name as idempotency key, then lists the order', async () => {
    const result = await run('exec-ok-1');
    expect(result.ok).toBe(true);
    const output = (
      result as unknown as {
        output: { placed: { al_id: string; idempotency: unknown }; pending: { orders: { al_id: string }[] } };
      }
    ).output;
    expect(output.placed.idempotency).toEqual({ key: 'exec-ok-1', replayed: false });
    expect(output.pending.orders.map((o) => o.al_id)).toEqual([output.placed.al_id]);
  });

  it('places a protective OCO from Step Functions, keyed by the execution name, and a re-run places nothing twice', async () => {
    const first = await run('exec-oco-1', { order, oco });
    expect(first.ok).toBe(true);
    const output = (
      first as unknown as {
        output: {
          ocoPlaced: { al_id: string; stat: string; idempotency: unknown };
          pending: { orders: { al_id: string; type: string }[] };
        };
      }
    ).output;
    expect(output.ocoPlaced).toMatchObject({
      stat: 'OI created',
      idempotency: { key: 'exec-oco-1-oco', replayed: false },
    });
    expect(output.pending.orders.find((o) => o.al_id === output.ocoPlaced.al_id)?.type).toBe('oco');
    const again = await run('exec-oco-1', { order, oco });
    expect(
      (again as unknown as { output: { ocoPlaced: { idempotency: unknown } } }).output.ocoPlaced.idempotency,
    ).toEqual({ key: 'exec-oco-1-oco', replayed: true });
    expect((await control.requests()).filter((r) => r.operation === 'PlaceOCOOrder')).toHaveLength(1);
    expect((await control.requests()).filter((r) => r.operation === 'PlaceGTTOrder')).toHaveLength(1);
  });

  it('retries the list (a safe operation) after an injected broker timeout', async () => {
    await control.fault({ operation: 'GetPendingGTTOrder', kind: 'delay', delayMs: 2_000, times: 1 });
    const result = await run('exec-retry-1');
    expect(result.ok).toBe(true);
    const lists = (await control.requests()).filter((r) => r.operation === 'GetPendingGTTOrder');
    expect(lists).toHaveLength(2);
    expect((await control.requests()).filter((r) => r.operation === 'PlaceGTTOrder')).toHaveLength(1);
  });

  it('catches SessionExpired and ends in the session-expired Fail state', async () => {
    await control.expire(stack.emulator.token);
    const result = await run('exec-expired-1');
    expect(result.ok).toBe(false);
    // The Catch routed it to the session-expired Fail state, whose cause is what the execution failed with.
    expect(result.ok || result.error.message).toMatch(/Store a fresh broker access token/);
    expect((await control.orders(stack.emulator.uid)).length).toBe(0);
  });
});

describe('the example as a product', () => {
  it('npm run workflow runs exactly the definition the stack deploys', () => {
    const s = new Stack(new App(), 'WorkflowSynth', { env: { account: '000000000000', region: 'us-east-1' } });
    const fn = (id: string, name: string) => lambda.Function.fromFunctionArn(s, id, arn(name));
    const fns = {
      place: fn('Place', 'PlaceGTTOrder'),
      placeOco: fn('PlaceOcoFn', 'PlaceOCOOrder'),
      listPending: fn('List', 'GetPendingGTTOrder'),
    };
    new sfn.StateMachine(s, 'Machine', {
      definitionBody: sfn.DefinitionBody.fromChainable(buildWorkflowDefinition(s, fns)),
    });
    const machine = Object.values(Template.fromStack(s).findResources('AWS::StepFunctions::StateMachine'))[0] as {
      Properties: { DefinitionString: string | { 'Fn::Join': [string, unknown[]] } };
    };
    const text =
      typeof machine.Properties.DefinitionString === 'string'
        ? machine.Properties.DefinitionString
        : machine.Properties.DefinitionString['Fn::Join'][1].map(String).join('');
    expect(renderWorkflowDefinition()).toEqual(JSON.parse(text));
  });

  it('its stack outputs the state machine ARN and a ready start-execution line with a valid input', () => {
    const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
    const fns = new Stack(app, 'Fns', { env: { account: '000000000000', region: 'ap-south-1' } });
    // A no-op resource: a stack with none is a CloudFormation validation warning at synth (printed by npm test).
    new CfnWaitConditionHandle(fns, 'Placeholder');
    const fn = (id: string) =>
      lambda.Function.fromFunctionArn(fns, id, `arn:aws:lambda:ap-south-1:000000000000:function:${id}`);
    const example = new WorkflowExampleStack(app, 'Example', {
      env: { account: '000000000000', region: 'ap-south-1' },
      functions: { place: fn('PlaceGTTOrder'), placeOco: fn('PlaceOCOOrder'), listPending: fn('GetPendingGTTOrder') },
    });
    const outputs = Template.fromStack(example).toJSON().Outputs as Record<string, { Value: unknown }>;
    const machineRef = {
      Ref: Object.keys(Template.fromStack(example).findResources('AWS::StepFunctions::StateMachine'))[0],
    };
    expect(outputs.StateMachineArn!.Value).toEqual(machineRef);
    const line = JSON.stringify(outputs.StartExecutionCommand!.Value);
    expect(line).toContain('aws stepfunctions start-execution --region ap-south-1 --state-machine-arn ');
    expect(line).toContain(JSON.stringify(machineRef));
    const input = /--input '(.*)'$/.exec(startExecutionCommand('ARN', 'ap-south-1'))![1]!;
    expect(JSON.parse(input)).toEqual(EXAMPLE_INPUT);
    expect(workflowInputSchema.safeParse(EXAMPLE_INPUT).success).toBe(true);
  });

  it('docs/workflow/input.schema.json is the zod schema the runner checks with (npm run workflow:schema)', () => {
    expect(readFileSync(WORKFLOW_INPUT_SCHEMA_FILE, 'utf8')).toBe(workflowInputJsonSchemaText());
  });

  it('the JSON Schema takes the inputs the state machine runs with above and refuses what the functions refuse', () => {
    const ajv = new Ajv2020({ strict: false });
    const validate = ajv.compile(JSON.parse(readFileSync(WORKFLOW_INPUT_SCHEMA_FILE, 'utf8')) as object);
    expect(validate({ order })).toBe(true);
    expect(validate({ order, oco })).toBe(true);
    expect(validate({ order: { ...order, exch: 'NASDAQ' } })).toBe(false);
    expect(validate({ order, extra: 1 })).toBe(false);
    expect(validate({ oco })).toBe(false);
  });
});
