/**
 * Every request body the docs show is one the API takes: a ```json block marked `<!-- body: METHOD /path -->`, or
 * whose first line is `METHOD /path` (the reference's style: `POST /plans   (Idempotency-Key: …)`), is parsed and
 * validated with the route's own schema (an operation's input, path parameters filled in; another function's
 * bodySchema), as the gateway validates it. A body a doc shows and the gateway refuses fails here.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';
import type { z } from 'zod';

import { EXAMPLE_AL_ID } from '../../functions/base/schemas/examples.js';
import { ROUTES } from '../../functions/manifest/index.js';
import { docPages } from '../support/doc-pages.js';

const ROOT = join(import.meta.dirname, '..', '..');

interface Body {
  where: string;
  method: string;
  path: string;
  json: string;
}

const MARKED = /<!-- body: (POST|PUT|PATCH) (\S+) -->\s*```json\n([\s\S]*?)```/g;
const HEADED = /```json\n(POST|PUT|PATCH) (\/\S*)[^\n]*\n([\s\S]*?)```/g;

const bodiesOf = (page: string): Body[] => {
  const text = readFileSync(join(ROOT, page), 'utf8');
  const line = (index: number) => text.slice(0, index).split('\n').length;
  return [...text.matchAll(MARKED), ...text.matchAll(HEADED)].map((m) => ({
    where: `${page}:${line(m.index)}`,
    method: m[1]!,
    path: m[2]!,
    json: m[3]!,
  }));
};
const BODIES = ['README.md', ...docPages(ROOT)].flatMap(bodiesOf);

/** The route a doc's `METHOD /path` names (a template like `{alId}`, or a literal id in its place). */
const routeOf = (method: string, path: string) =>
  ROUTES.find(({ route }) => {
    if (route.method !== method) return false;
    const pattern = new RegExp(`^${route.path.replace(/\{[^}]+\}/g, '[^/]+')}$`);
    return pattern.test(path);
  });

/** The schema the gateway checks this body with, and the input it checks (path parameters as fields). */
const checkOf = (
  method: string,
  path: string,
  body: Record<string, unknown>,
): { schema: z.ZodType; input: unknown } => {
  const found = routeOf(method, path);
  if (!found) throw new Error(`no route ${method} ${path}`);
  const operation = found.fn.operation;
  if (operation && operation.route.method === method && operation.route.path === found.route.path) {
    const params = Object.fromEntries(Object.values(operation.pathParams ?? {}).map((field) => [field, EXAMPLE_AL_ID]));
    return { schema: operation.input as z.ZodType, input: { ...body, ...params } };
  }
  if (!found.route.bodySchema) throw new Error(`${method} ${found.route.path} takes no body`);
  return { schema: found.route.bodySchema, input: body };
};

describe('request bodies in the docs', () => {
  it('finds the marked bodies of the how-tos and the reference', () => {
    expect(BODIES.length).toBeGreaterThanOrEqual(10);
    expect(new Set(BODIES.map((b) => `${b.method} ${b.path}`))).toContain('POST /gtt-orders/oco');
  });

  it.each(BODIES.map((b) => [b.where, b] as const))('%s: the gateway takes it', (_where, body) => {
    const parsed = JSON.parse(body.json) as Record<string, unknown>;
    const { schema, input } = checkOf(body.method, body.path, parsed);
    const result = schema.safeParse(input);
    expect(result.success ? [] : result.error.issues, `${body.method} ${body.path}`).toEqual([]);
  });

  it('a body the gateway refuses fails this check (an OCO leg without its order)', () => {
    const { schema, input } = checkOf('POST', '/gtt-orders/oco', {
      exch: 'NSE',
      tsym: 'INFY-EQ',
      target: { trigger: '1600', price: '1600' },
      stopLoss: { trigger: '1400', price: '1390' },
    });
    expect(schema.safeParse(input).success).toBe(false);
  });
});
