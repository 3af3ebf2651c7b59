/** The operations of the OpenAPI document: their list, and `call`, which reaches any of them by its operationId. */
import { OPERATION_INFO, type OperationInfo } from '../../generated/operations.js';
import type { CallInput, OperationId } from '../../types.js';
import { command, may, repeats } from '../command.js';
import { table } from '../render.js';

export const operations = command({
  name: 'operations',
  flags: [],
  summary: 'the operations of the OpenAPI document (for call): operationId, method, path, idempotency key',
  run: () => Promise.resolve(OPERATION_INFO),
  render: (info) =>
    table(
      ['operationId', 'method', 'path', 'idempotency'],
      Object.entries(info as Record<string, OperationInfo>).map(([id, op]) => [
        id,
        op.method,
        op.path,
        op.idempotencyKey ? `key ${op.idempotencyKey}` : '',
      ]),
    ),
});

export const call = command({
  name: 'call',
  args: ['OperationId'],
  flags: [repeats('path', 'name=value'), repeats('query', 'name=value'), may('body', 'JSON'), may('key', 'K')],
  dryRun: true,
  summary: 'any operation of the OpenAPI document by its operationId; prints the JSON answer',
  input: (f, args) => {
    const operation = args[0] ?? '';
    if (args.length === 1 && !(operation in OPERATION_INFO))
      f.problem(`unknown operationId ${JSON.stringify(operation)}; \`operations\` lists them`);
    let body: unknown;
    const text = f.str('body');
    if (text !== undefined) {
      try {
        body = JSON.parse(text);
      } catch {
        f.problem('--body must be JSON');
      }
    }
    const input = { path: f.pairs('path'), query: f.pairs('query'), ...(body === undefined ? {} : { body }) };
    // The operation's own types are the gateway's to check: the command line passes what it was given.
    return { operation: operation as OperationId, input: input as unknown as CallInput<OperationId> };
  },
  run: ({ client, orderOptions }, { operation, input }): Promise<unknown> =>
    client.call(operation, input, orderOptions),
  render: 'json',
});
