/**
 * The streamable HTTP transport's own answers at `/mcp` (MCP spec 2025-06-18, "Transports"), through the real
 * handler on the local stack over loopback (issue 58, item 8): `GET` and every other method but POST are 405 with
 * `Allow: POST` (no event stream is offered); a notification or a response is 202 with no body and no content type;
 * a body that is not JSON is JSON-RPC's -32700, a batch or an object that is not a JSON-RPC message its -32600, both
 * HTTP 400 with id null; the caller is still known first (no token: 401), and a request after them is answered.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { LocalStack } from '../../local/run-local.js';
import { useLocalStack } from '../support/local-stack-fixture.js';
import { remoteMcpClient } from '../support/mcp-tools.js';

let stack: LocalStack;
useLocalStack({}, (s) => {
  stack = s;
});

const MCP_HEADERS = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };
let token: string;
let client: Client | undefined;

beforeAll(async () => {
  const created = await fetch(`${stack.api.url}/assistants`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'Idempotency-Key': 'mcp-transport-assistant' },
    body: JSON.stringify({ name: 'transport-checker', scopes: ['read'], limits: {} }),
  });
  expect(created.status).toBe(201);
  token = ((await created.json()) as { token: string }).token;
});
afterAll(async () => {
  await client?.close();
});

/** A raw request to /mcp with the assistant's token (or without one). */
const mcp = async (method: string, body?: string, withToken = true) => {
  const res = await fetch(`${stack.api.url}/mcp`, {
    method,
    headers: { ...MCP_HEADERS, ...(withToken ? { authorization: `Bearer ${token}` } : {}) },
    ...(body === undefined ? {} : { body }),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text };
};

const errorOf = (text: string) =>
  JSON.parse(text) as { jsonrpc: string; id: unknown; error: { code: number; message: string } };

describe('/mcp answers the streamable HTTP transport as the spec asks', () => {
  it.each(['GET', 'DELETE', 'PUT', 'PATCH'])('%s is 405 with Allow: POST, with or without a token', async (method) => {
    for (const withToken of [true, false]) {
      const reply = await mcp(method, undefined, withToken);
      expect(reply.status).toBe(405);
      expect(reply.headers.get('allow')).toBe('POST');
      const body = errorOf(reply.text);
      expect(body).toMatchObject({ jsonrpc: '2.0', id: null });
      expect(body.error.message).toContain(`${method} /mcp is not offered`);
      expect(body.error.message).toContain('one JSON-RPC 2.0 message per POST');
    }
  });

  it('answers notifications/initialized and a response with 202, no body and no content type', async () => {
    const initialized = await mcp('POST', JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
    expect(initialized.status).toBe(202);
    expect(initialized.text).toBe('');
    expect(initialized.headers.get('content-type')).toBeNull();
    const response = await mcp('POST', JSON.stringify({ jsonrpc: '2.0', id: 7, result: {} }));
    expect(response.status).toBe(202);
    expect(response.text).toBe('');
    expect(response.headers.get('content-type')).toBeNull();
  });

  it.each([
    ['not JSON', '{"jsonrpc": "2.0", "id": 1, "method": '],
    ['empty', ''],
  ])('answers a body that is %s with -32700 Parse error, HTTP 400, id null', async (_what, body) => {
    const reply = await mcp('POST', body);
    expect(reply.status).toBe(400);
    expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
    const error = errorOf(reply.text);
    expect(error).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32_700 } });
    expect(error.error.message).toMatch(/^Parse error: the body is (not valid JSON|empty)\. Send one JSON-RPC/);
  });

  it.each([
    ['a batch', [{ jsonrpc: '2.0', id: 1, method: 'ping' }], /a batch \(a JSON array\) is not accepted/],
    ['a string', 'ping', /the body is not a JSON object/],
    ['without jsonrpc 2.0', { id: 1, method: 'ping' }, /"jsonrpc" must be "2\.0"/],
    ['neither a request nor a response', { jsonrpc: '2.0', id: 1 }, /has no "method"/],
    ['with a numeric method', { jsonrpc: '2.0', id: 1, method: 5 }, /"method" must be a non-empty string/],
    ['with an object id', { jsonrpc: '2.0', id: {}, method: 'ping' }, /"id" must be a string or a number/],
  ])('answers %s with -32600 Invalid Request, HTTP 400, id null', async (_what, body, message) => {
    const reply = await mcp('POST', JSON.stringify(body));
    expect(reply.status).toBe(400);
    const error = errorOf(reply.text);
    expect(error).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32_600 } });
    expect(error.error.message).toMatch(message);
    expect(error.error.message).toContain('Send one JSON-RPC 2.0 message per POST');
  });

  it('knows the caller before reading the body: bad JSON without a token is 401', async () => {
    const reply = await mcp('POST', '[not json', false);
    expect(reply.status).toBe(401);
    expect(reply.headers.get('www-authenticate')).toMatch(/^Bearer /);
  });

  it('still answers a request: an SDK client connects and lists its tools', async () => {
    client = await remoteMcpClient(stack.api.url, token);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('pending_gtts');
    const ping = await mcp('POST', JSON.stringify({ jsonrpc: '2.0', id: 'p1', method: 'ping' }));
    expect(ping.status).toBe(200);
    expect(JSON.parse(ping.text)).toEqual({ jsonrpc: '2.0', id: 'p1', result: {} });
  });
});
