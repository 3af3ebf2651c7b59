/**
 * The handler files are generated from the manifest (functions/manifest/handler-files.ts, `npm run handlers`): every
 * function has exactly one, named by its id, and each operation's file passes the journal exactly when the
 * entry takes keys, the outbox's event producer exactly when it has a lifecycle event, the trading controls (order-rate
 * governor, kill switch) exactly when it writes orders, and the order leases exactly when it changes an order, so
 * other bundles carry no client they never use.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';

import { describe, expect, it } from 'vitest';

import { changesAnOrder, usesTradingControls } from '../../functions/base/contract/operation.js';
import { factoryName } from '../../functions/manifest/handler-files.js';
import { FUNCTIONS } from '../../functions/manifest/index.js';

const DIR = 'functions/handlers';
const files = readdirSync(DIR).filter((f) => f.endsWith('.ts'));

describe('handler files match the manifest', () => {
  it('every function has exactly one handler file, named by its id, and there is no other', () => {
    expect(files.sort()).toEqual(FUNCTIONS.map((f) => `${f.id}.ts`).sort());
  });

  it.each(FUNCTIONS.filter((f) => f.operation).map((f) => [f.name, f] as const))(
    '%s: journal, events, controls and leases options as its entry says',
    (_name, fn) => {
      const op = fn.operation!;
      const text = readFileSync(`${DIR}/${fn.id}.ts`, 'utf8');
      // The gateway's stack, or the one the entry names (the quote function's, with GET /options beside it).
      const stack =
        fn.bundle.handler.kind === 'operation' ? (fn.bundle.handler.stack?.name ?? 'createGatewayStack') : '';
      const options = new RegExp(`${stack}\\((\\w+),\\s*\\{([^}]*)\\}`).exec(text)?.[2] ?? '';
      expect(/\bjournal:\s*dynamoJournal\b/.test(options), 'journal option').toBe(op.idempotency !== undefined);
      expect(/\bevents:\s*createOutboxEvents\b/.test(options), 'events option').toBe(op.lifecycle !== undefined);
      expect(/\bcontrols:\s*dynamoTradingControls\b/.test(options), 'trading controls option').toBe(
        // Order writes take permits; Logout writes the session's end into the same item.
        usesTradingControls(op),
      );
      // Modify, PATCH and cancel: one change per order at a time (the leases on the control table); an OCO place
      // for the cancel of an OCO held otherwise than asked (orders/gateway/oco-readback.ts).
      expect(/\bleases:\s*dynamoLeases\b/.test(options), 'leases option').toBe(
        changesAnOrder(op) || (op.readBack !== undefined && changesAnOrder(op.readBack.cancel)),
      );
      expect(/\bcopy:\s*dynamoOrderCopy\b/.test(options), 'copy option').toBe(Boolean(op.fromCopy));
      expect(options).toMatch(/prefetchSession:\s*true/);
    },
  );

  it.each(FUNCTIONS.filter((f) => f.bundle.handler.kind === 'factory').map((f) => [f.name, f] as const))(
    "%s: its handler file's factory is its definition's own (the module it names exports that very function)",
    async (_name, fn) => {
      const source = fn.bundle.handler as { kind: 'factory'; from: string };
      const file = resolve('functions/handlers', source.from).replace(/\.js$/, '.ts');
      const module = (await import(/* @vite-ignore */ file)) as Record<string, unknown>;
      expect(module[factoryName(fn)]).toBe(fn.create);
      expect(readFileSync(`${DIR}/${fn.id}.ts`, 'utf8')).toContain(`${factoryName(fn)}({ logger })`);
    },
  );

  it.each(FUNCTIONS.map((f) => [f.name, f] as const))('%s: exports one handler and says it is generated', (_n, fn) => {
    const text = readFileSync(`${DIR}/${fn.id}.ts`, 'utf8');
    expect(text).toMatch(/^\/\/ Generated from the function manifest/);
    expect(text.match(/export const handler =/g)).toHaveLength(1);
  });
});
