/**
 * The handler files are the only place outside the table where an operation's options are written (the factories
 * are passed there so other bundles carry no DynamoDB or EventBridge client). This test holds them to the table:
 * every entry has one file, each file binds one entry, and it passes the idempotency store exactly when the entry
 * takes keys, the event producer exactly when the entry has a lifecycle event, and the trading controls (order-rate
 * governor, kill switch) exactly when it writes orders.
 */
import { readdirSync, readFileSync } from 'node:fs';

import { describe, expect, it } from 'vitest';

import type { AnyOperation } from '../../functions/contract/operation.js';
import * as table from '../../functions/operations.js';
import { OPERATIONS } from '../../functions/operations.js';

const DIR = 'functions/handlers';
const entries = new Map<string, AnyOperation>(
  Object.entries(table).filter(([, value]) => OPERATIONS.includes(value as AnyOperation)) as [string, AnyOperation][],
);

const bindings = readdirSync(DIR)
  .filter((f) => f.endsWith('.ts'))
  .flatMap((file) => {
    const text = readFileSync(`${DIR}/${file}`, 'utf8');
    const bound = /createGatewayHandler\((\w+)\s*,\s*\{([^}]*)\}/.exec(text);
    return bound ? [{ file, exportName: bound[1]!, options: bound[2]! }] : [];
  });

describe('handler files match the operation table', () => {
  it('every entry has exactly one handler file, named by its id', () => {
    expect(bindings.map((b) => entries.get(b.exportName)?.name).sort()).toEqual(OPERATIONS.map((op) => op.name).sort());
    for (const b of bindings) expect(b.file).toBe(`${entries.get(b.exportName)!.id}.ts`);
  });

  it.each(OPERATIONS.map((op) => [op.name, op] as const))(
    '%s: idempotency and events options as its entry says',
    (_name, op) => {
      const binding = bindings.find((b) => entries.get(b.exportName) === op)!;
      expect(/\bidempotency:\s*dynamoIdempotency\b/.test(binding.options), 'idempotency option').toBe(
        op.idempotency !== undefined,
      );
      expect(/\bevents:\s*createGatewayEvents\b/.test(binding.options), 'events option').toBe(
        op.lifecycle !== undefined,
      );
      expect(/\bcontrols:\s*dynamoTradingControls\b/.test(binding.options), 'trading controls option').toBe(
        op.kind === 'order',
      );
      expect(binding.options).toMatch(/prefetchSession:\s*true/);
    },
  );
});
