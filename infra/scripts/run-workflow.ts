/**
 * `npm run workflow -- '<input json>' [--name NAME] [--url URL]`: runs the example state machine (exactly the
 * definition GttGatewayWorkflowExampleStack deploys) on this machine with aws-local-stepfunctions, against a running
 * `npm start`: each task invokes its function through the local API's direct-invocation route
 * (`POST /_invoke/<Operation>`, the Lambda Invoke shape), so retries and catches see the functions' own error names.
 * The execution name is the idempotency key, as in AWS: the same `--name` again places nothing twice.
 *
 * stdout: the execution's output (JSON). stderr: one line per state (`replayed` for a task the idempotency layer
 * answered from an earlier run of the same name). Exit 0 succeeded, 1 failed, 2 usage.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

import { renderWorkflowDefinition, TASK_OPERATIONS } from '../workflow/workflow.js';
import { workflowInputSchema } from '../workflow/workflow-input.js';

// aws-local-stepfunctions 3 uses Promise.withResolvers (Node 22); Node 20 needs this one-line polyfill.
(Promise as unknown as { withResolvers?: unknown }).withResolvers ??= <T>() => { let resolve!: (v: T) => void; let reject!: (e: unknown) => void; const promise = new Promise<T>((res, rej) => { resolve = res; reject = rej; }); return { promise, resolve, reject }; }; // prettier-ignore

const USAGE = `usage: npm run workflow -- '<input json>' | @input.json [--name EXECUTION_NAME] [--url URL (default $GTT_API_URL or http://127.0.0.1:3000)]
  input: {"order": {exch, tsym, qty, prc, prd, trantype, prctyp, ret, ai_t, d}, "oco"?: {exch, tsym, target, stopLoss}} (docs/workflow/input.schema.json)`;

const fail = (message: string, code = 2): never => {
  console.error(`workflow: ${message}`);
  if (code === 2) console.error(USAGE.split('\n')[0]);
  process.exit(code);
};

let parsed;
try {
  parsed = parseArgs({
    allowPositionals: true,
    options: { name: { type: 'string' }, url: { type: 'string' }, help: { type: 'boolean' } },
  });
} catch (error) {
  fail((error as Error).message);
}
const { values, positionals } = parsed!;
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
if (positionals.length !== 1)
  fail(positionals.length ? `one input expected, got ${positionals.length}` : 'the execution input is missing');

const text = positionals[0]!.startsWith('@') ? readFileSync(positionals[0]!.slice(1), 'utf8') : positionals[0]!;
let raw: unknown;
try {
  raw = JSON.parse(text);
} catch (error) {
  fail(`the input is not JSON: ${(error as Error).message}`);
}
const input = workflowInputSchema.safeParse(raw);
if (!input.success) {
  fail(
    `the input does not fit docs/workflow/input.schema.json: ${input.error.issues.map((i) => `${i.path.join('.') || '(input)'} ${i.message}`).join('; ')}`,
  );
}

const name =
  values.name ??
  `local-${new Date().toISOString().replace(/[-:]/g, '').slice(0, 15)}-${randomBytes(3).toString('hex')}`;
if (!/^[\w-]{1,80}$/.test(name))
  fail(`--name must be 1 to 80 letters, digits, - or _ (a Step Functions execution name), got ${JSON.stringify(name)}`);

const base = (values.url ?? process.env.GTT_API_URL ?? 'http://127.0.0.1:3000').replace(/\/+$/, '');
let url: URL;
try {
  url = new URL(base);
} catch {
  fail(`--url is not a URL: ${JSON.stringify(base)}`);
}
// Only `npm start` has the direct-invocation route; a deployed example runs with `aws stepfunctions start-execution`.
if (!['127.0.0.1', 'localhost', '[::1]'].includes(url!.hostname)) {
  fail(
    `${base} is not a local API: npm run workflow runs against npm start; for a deployment use the stack's StartExecutionCommand output`,
  );
}

/** Tasks whose answer was the idempotency layer's replay (`idempotency.replayed`), shown `replayed`, not `ok`. */
const replayedStates = new Set<string>();

/** One task: the function invoked as Lambda would, its error rethrown under the function's own error name. */
const invoke = (state: string, operation: string) => async (payload: unknown) => {
  let res: Response;
  try {
    res = await fetch(`${base}/_invoke/${operation}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(payload),
      signal: AbortSignal.timeout(30_000),
    });
  } catch (error) {
    return fail(`no local API at ${base} (${(error as Error).message}): start it with npm start`, 1);
  }
  const body = (await res.json().catch(() => null)) as Record<string, unknown> | null;
  if (res.status !== 200)
    return fail(`${base}/_invoke/${operation} answered HTTP ${res.status}: is ${base} npm start?`, 1);
  if (res.headers.get('x-amz-function-error')) {
    const error = new Error(String(body?.errorMessage ?? 'function error'));
    error.name = String(body?.errorType ?? 'Error');
    throw error;
  }
  if ((body?.idempotency as { replayed?: unknown } | undefined)?.replayed === true) replayedStates.add(state);
  return body as never;
};

const { StateMachine } = await import('aws-local-stepfunctions');
const machine = new StateMachine(renderWorkflowDefinition() as never, { validationOptions: { checkPaths: false } });
console.error(`execution ${name} against ${base}`);
const execution = machine.run(
  raw as never,
  {
    overrides: {
      taskResourceLocalHandlers: Object.fromEntries(
        Object.entries(TASK_OPERATIONS).map(([state, op]) => [state, invoke(state, op)]),
      ),
    },
    context: { Execution: { Name: name, Input: raw } },
  } as never,
);

let replays = 0;
const logs = (async () => {
  for await (const event of execution.eventLogs) {
    if (event.type === 'StateExited' && replayedStates.has(event.state.name)) {
      replays++;
      console.error(`  replayed ${event.state.name} (the key's first answer: nothing sent again)`);
    } else if (event.type === 'StateExited') console.error(`  ok      ${event.state.name}`);
    else if (event.type === 'StateRetried')
      console.error(`  retry   ${event.state.name} (attempt ${event.retry.attempt})`);
    else if (event.type === 'StateFailed') console.error(`  failed  ${event.state.name}: ${event.Error}`);
    else if (event.type === 'StateCaught') console.error(`  caught  ${event.state.name}`);
  }
})();
try {
  const output = await execution.result;
  await logs;
  console.log(JSON.stringify(output, null, 2));
  console.error(
    replays
      ? `succeeded, replayed: ${replays} task(s) answered from the first run of ${name}; nothing was placed twice`
      : `succeeded: re-running with --name ${name} places nothing twice`,
  );
} catch (error) {
  await logs.catch(() => undefined);
  const e = error as Error & { cause?: unknown };
  console.error(`failed: ${e.message}`);
  process.exit(1);
}
