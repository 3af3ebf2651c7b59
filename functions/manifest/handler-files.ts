/**
 * The text of each handler entry file (functions/handlers/<id>.ts), from the manifest: the file the CDK stack bundles
 * for the function. An operation function binds its operation to the gateway stack with exactly the factories its
 * entry needs (the idempotency store where it takes keys, the outbox's event producer where it has a lifecycle event,
 * the trading controls where it writes orders), so other bundles carry no DynamoDB client and none an EventBridge
 * client (a deployed order function queues its events in the outbox, events/outbox-events.ts); any other function
 * calls its factory. Written by `npm run handlers`; `npm run handlers:check` fails on drift.
 */
import { changesAnOrder, usesTradingControls } from '../contract/operation.js';
import type { FunctionEntry, HandlerSource } from './types.js';

const HEADER = '// Generated from the function manifest (functions/manifest/) by `npm run handlers`: do not edit.';

type Imports = Map<string, Set<string>>;

const add = (imports: Imports, from: string, name: string): void => {
  imports.set(from, (imports.get(from) ?? new Set()).add(name));
};

const render = (imports: Imports, summary: string, body: string): string => {
  const lines = [...imports.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([from, names]) => `import { ${[...names].sort().join(', ')} } from '${from}';`);
  return `${HEADER}\n// ${summary}\n${lines.join('\n')}\n\nexport const handler = ${body};\n`;
};

const operationFile = (entry: FunctionEntry, source: Extract<HandlerSource, { kind: 'operation' }>): string => {
  const op = source.operation;
  const imports: Imports = new Map();
  add(imports, '../gateway/gateway-handler.js', 'createGatewayStack');
  add(imports, '../operations.js', source.exportName);
  const options: string[] = [];
  if (op.idempotency) {
    add(imports, '../orders/journal-factory.js', 'dynamoIdempotency');
    options.push('idempotency: dynamoIdempotency');
  }
  if (op.lifecycle) {
    add(imports, '../events/outbox-events.js', 'createOutboxEvents');
    options.push('events: createOutboxEvents');
  }
  if (usesTradingControls(op)) {
    add(imports, '../safety/trading-controls.js', 'dynamoTradingControls');
    options.push('controls: dynamoTradingControls');
  }
  if (changesAnOrder(op)) {
    add(imports, '../gateway/gateway-handler.js', 'dynamoLeases');
    options.push('leases: dynamoLeases');
  }
  if (op.fromCopy) {
    add(imports, '../gateway/gateway-handler.js', 'dynamoOrderCopy');
    options.push('copy: dynamoOrderCopy');
  }
  if (op.guardedOrders) {
    add(imports, '../instruments/copy.js', 'dynamoInstrumentCopy');
    options.push('instruments: dynamoInstrumentCopy');
  }
  options.push('prefetchSession: true');
  return render(
    imports,
    `${entry.name}: the operation table's ${source.exportName} on the shared gateway stack.`,
    `createGatewayStack(${source.exportName}, { ${options.join(', ')} })`,
  );
};

export const handlerFileText = (entry: FunctionEntry): string => {
  const source = entry.bundle.handler;
  if (source.kind === 'operation') return operationFile(entry, source);
  const imports: Imports = new Map();
  add(imports, source.from, source.create);
  for (const extra of source.imports ?? []) add(imports, extra.from, extra.names);
  return render(imports, entry.summary, `${source.create}(${source.args ?? ''})`);
};

/** The file of an entry, relative to the repository. */
export const handlerFilePath = (entry: FunctionEntry): string => `functions/handlers/${entry.id}.ts`;
