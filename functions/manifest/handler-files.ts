/**
 * The text of each handler entry file (functions/handlers/<id>.ts), from the function's definition: the file the CDK
 * stack bundles for the function. An operation function binds its operation to the gateway stack with exactly the
 * factories its entry needs (orders/definitions.ts GATEWAY_BINDINGS, which its definition's factory binds too); any other
 * function calls its definition's factory, `create({ logger })`, imported by its own name from `bundle.handler.from`.
 * Written by `npm run handlers`; `npm run handlers:check` fails on drift.
 */
import type { FunctionDefinition, FunctionEntry, HandlerSource } from '../base/definition/types.js';
import { bindingsOf } from '../orders/definitions.js';

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

const operationFile = (entry: FunctionDefinition, source: Extract<HandlerSource, { kind: 'operation' }>): string => {
  const op = source.operation;
  const imports: Imports = new Map();
  const stack = source.stack ?? { name: 'createGatewayStack', from: '../orders/gateway/gateway-handler.js' };
  add(imports, stack.from, stack.name);
  add(imports, '../orders/operations.js', source.exportName);
  const options: string[] = [];
  for (const binding of bindingsOf(op)) {
    add(imports, binding.from, binding.name);
    options.push(`${binding.option}: ${binding.name}`);
  }
  options.push('prefetchSession: true');
  return render(
    imports,
    `${entry.name}: the operation table's ${source.exportName} on the shared gateway stack.`,
    `${stack.name}(${source.exportName}, { ${options.join(', ')} })`,
  );
};

/** The name the factory module exports the definition's `create` under (its own name: `createPlansFunction`). */
export const factoryName = (entry: FunctionDefinition): string => entry.create.name;

export const handlerFileText = (entry: FunctionDefinition): string => {
  const source = entry.bundle.handler;
  if (source.kind === 'operation') return operationFile(entry, source);
  const imports: Imports = new Map();
  add(imports, source.from, factoryName(entry));
  add(imports, '../base/runtime/logger.js', 'logger');
  return render(imports, entry.summary, `${factoryName(entry)}({ logger })`);
};

/** The entry file of a function, relative to the repository: its generated one, or the one its definition names. */
export const handlerFilePath = (entry: FunctionEntry): string =>
  (entry.bundle.handler.kind === 'factory' ? entry.bundle.handler.entryFile : undefined) ??
  `functions/handlers/${entry.id}.ts`;
