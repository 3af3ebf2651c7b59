/** The OpenAPI document is generated from the operation table and the same zod schemas the handlers enforce. */
import { readFileSync } from 'node:fs';

import { describe, expect, it } from 'vitest';

import { ERROR_CATALOG } from '../../functions/base/contract/errors.js';
import { OPERATIONS, ROUTES } from '../../functions/manifest/index.js';
import { buildOpenApiDocument } from '../../functions/manifest/openapi.js';

type Doc = {
  openapi: string;
  paths: Record<
    string,
    Record<
      string,
      {
        operationId: string;
        requestBody?: {
          content: Record<string, { schema: { required: string[]; properties: Record<string, unknown> } }>;
        };
        responses: Record<string, unknown>;
        parameters: { name: string; required: boolean }[];
      }
    >
  >;
};
const doc = buildOpenApiDocument('http://127.0.0.1:3000') as unknown as Doc;

describe('OpenAPI document', () => {
  it('has one operation per table entry, on its route', () => {
    expect(doc.openapi).toBe('3.1.0');
    for (const op of OPERATIONS)
      expect(doc.paths[op.route.path]?.[op.route.method.toLowerCase()]?.operationId).toBe(op.name);
  });

  it('documents the place body from the input schema, the required key, and every error status', () => {
    const place = doc.paths['/gtt-orders']!.post!;
    const body = place.requestBody!.content['application/json']!.schema;
    expect(body.required).toEqual(['exch', 'tsym', 'qty', 'prd', 'trantype', 'prctyp', 'ret', 'ai_t', 'd']);
    expect(Object.keys(body.properties)).toContain('validity');
    expect(place.parameters).toContainEqual(expect.objectContaining({ name: 'Idempotency-Key', required: true }));
  });

  it('every operation, the session and control routes too, documents every error code under its status', () => {
    const operations = Object.values(doc.paths).flatMap((methods) => Object.values(methods));
    expect(operations.length).toBe(ROUTES.length);
    for (const op of operations) {
      for (const [code, row] of Object.entries(ERROR_CATALOG)) {
        const response = op.responses[String(row.status)] as { description?: string } | undefined;
        expect(response?.description, `${op.operationId} ${code}`).toContain(`${code}: `);
      }
    }
  });

  it('takes al_id from the path for modify and cancel, not the body', () => {
    const modify = doc.paths['/gtt-orders/{alId}']!.put!;
    expect(modify.parameters).toContainEqual(expect.objectContaining({ name: 'alId', required: true }));
    expect(Object.keys(modify.requestBody!.content['application/json']!.schema.properties)).not.toContain('al_id');
    expect(doc.paths['/gtt-orders/{alId}']!.delete!.requestBody).toBeUndefined();
  });
});

describe('the version', () => {
  it('is one number: the OpenAPI document, package.json and the client package say the same', () => {
    const versionOf = (path: string) =>
      (JSON.parse(readFileSync(new URL(path, import.meta.url), 'utf8')) as { version: string }).version;
    const root = versionOf('../../package.json');
    expect(root).toMatch(/^\d+\.\d+\.\d+$/);
    expect((buildOpenApiDocument().info as { version: string }).version).toBe(root);
    expect(versionOf('../../client/package.json')).toBe(root);
    expect(readFileSync(new URL('../../CHANGELOG.md', import.meta.url), 'utf8')).toContain(`## ${root} (`);
  });
});
