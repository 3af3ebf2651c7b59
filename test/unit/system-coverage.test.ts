/**
 * The system model covers every way in the manifest offers (test/support/system-coverage.ts): each route, each
 * function started by a trigger or invoked directly, each MCP tool is driven by a command of the model
 * (test/support/system-model.ts COMMANDS) or named with the reason it is not; every command kind says what it drives;
 * nothing in the registry names a way the manifest no longer has or a command that no longer exists.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { COVERS, manifestWays, NOT_DRIVEN } from '../support/system-coverage.js';
import { COMMANDS } from '../support/system-model.js';

const ways = manifestWays();
const driven = new Set(Object.values(COVERS).flat());

/** Every command kind COMMANDS makes (each arbitrary sampled until its kinds stop appearing). */
const kinds = new Set(
  COMMANDS.flatMap((arb) =>
    fc.sample(arb, { numRuns: 400, seed: 7 }).map((c) => (c as unknown as { kind: string }).kind),
  ),
);

describe('the system model against the manifest', () => {
  it('drives every way in, or says why not', () => {
    const missing = ways.filter((way) => !driven.has(way) && NOT_DRIVEN[way] === undefined);
    expect(missing, 'ways in the manifest with no command of the system model and no reason').toEqual([]);
    expect(ways.filter((way) => driven.has(way) && NOT_DRIVEN[way] !== undefined)).toEqual([]);
    for (const reason of Object.values(NOT_DRIVEN)) expect(reason.length).toBeGreaterThan(30);
  });

  it('names only ways the manifest has', () => {
    const known = new Set(ways);
    expect([...driven, ...Object.keys(NOT_DRIVEN)].filter((way) => !known.has(way))).toEqual([]);
  });

  it('every command kind of the model says what it drives, and every entry is a command kind', () => {
    expect([...kinds].filter((kind) => COVERS[kind] === undefined)).toEqual([]);
    expect(Object.keys(COVERS).filter((kind) => !kinds.has(kind))).toEqual([]);
  });

  it('counts what it checks: the manifest has its routes, triggers, direct invocations and tools', () => {
    expect(ways.filter((w) => /^(GET|POST|PUT|PATCH|DELETE) /.test(w)).length).toBeGreaterThan(40);
    expect(ways.filter((w) => w.startsWith('run ')).length).toBeGreaterThan(5);
    expect(ways.filter((w) => w.startsWith('invoke ')).length).toBeGreaterThan(20);
    expect(ways.filter((w) => w.startsWith('mcp ')).length).toBeGreaterThan(20);
  });
});
