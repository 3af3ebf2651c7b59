// `npm run build` / `npm pack` in client/: the package's JavaScript and type declarations in dist/, compiled by the
// repository's own TypeScript. The generated OpenAPI types are a declaration file already: copied as they are.
// The `gtt-mcp` bin (the MCP server over stdio, mcp/stdio.ts) is bundled by the repository's esbuild into one file,
// dist/gtt-mcp.js; the packages the client already depends on and the MCP SDK and zod stay external. The `gtt` bin
// (the command line, client/cli/program.ts) is bundled into dist/gtt.js as `npm run gtt` builds it (bundle-cli.mjs).
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import process from 'node:process';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { buildCli } from './bundle-cli.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const rootRequire = createRequire(join(here, '..', 'package.json'));
const tsc = rootRequire.resolve('typescript/bin/tsc');
// dist/ emptied but for the command line's bundle, which is rebuilt in place (written whole, then renamed): a running
// `npm run gtt` (run-gtt.mjs) never finds it missing.
mkdirSync(join(here, 'dist'), { recursive: true });
for (const entry of readdirSync(join(here, 'dist')))
  if (!/^gtt\.(js|meta\.json)/.test(entry)) rmSync(join(here, 'dist', entry), { recursive: true, force: true });
execFileSync(process.execPath, [tsc, '-p', join(here, 'tsconfig.build.json')], { stdio: 'inherit' });
mkdirSync(join(here, 'dist', 'generated'), { recursive: true });
copyFileSync(join(here, 'generated', 'openapi.d.ts'), join(here, 'dist', 'generated', 'openapi.d.ts'));

const { build } = await import(pathToFileURL(rootRequire.resolve('esbuild')).href);
const { metafile } = await build({
  absWorkingDir: join(here, '..'),
  entryPoints: ['mcp/stdio.ts'],
  outfile: join(here, 'dist', 'gtt-mcp.js'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  banner: { js: '#!/usr/bin/env node' },
  external: ['@modelcontextprotocol/sdk', 'zod', '@aws-sdk/credential-provider-node', 'aws4fetch', 'openapi-fetch'],
  metafile: true,
  logLevel: 'warning',
});
chmodSync(join(here, 'dist', 'gtt-mcp.js'), 0o755);
// Which source files went into the bin, relative to the repository: a test checks nothing beyond the client, the
// MCP server and the small schema files is bundled. Not packed (`files` in package.json).
writeFileSync(
  join(here, 'dist', 'gtt-mcp.meta.json'),
  `${JSON.stringify(Object.keys(metafile.inputs).sort(), null, 2)}\n`,
);

await buildCli(join(here, '..'), join(here, 'dist', 'gtt.js'));
