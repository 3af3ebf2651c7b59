/**
 * The console's build: one esbuild bundle of the app (console/src/main.ts) for the browser, its stylesheet and the
 * page that loads both. No inline script or style, so the page runs under `default-src 'self'; script-src 'self';
 * style-src 'self'`. Synchronous and offline (no network, no Docker): `npm start` builds it at its first request, and
 * the CDK app calls it at synth time as the deployment's local bundling. `config.json` (the API access mode) is not
 * part of the build: whoever serves the files writes it beside them.
 */
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { buildSync } from 'esbuild';

const SOURCE = join(dirname(fileURLToPath(import.meta.url)), 'src');

/** The page: a root to render into, the stylesheet and the script, all from the same origin. */
export const CONSOLE_INDEX_HTML = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>gtt-gateway console</title>
    <link rel="icon" href="icon.svg" type="image/svg+xml" />
    <link rel="stylesheet" href="app.css" />
    <script type="module" src="app.js"></script>
  </head>
  <body>
    <div id="app"><p class="loading">Loading the console…</p></div>
  </body>
</html>
`;

/** Builds the console into `outDir` (created if missing); returns the names of the files written. */
export const buildConsoleSync = (outDir: string): string[] => {
  mkdirSync(outDir, { recursive: true });
  buildSync({
    entryPoints: [join(SOURCE, 'main.ts')],
    outfile: join(outDir, 'app.js'),
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: ['es2022'],
    minify: true,
    legalComments: 'none',
    logLevel: 'silent',
    tsconfig: join(SOURCE, 'tsconfig.json'),
  });
  copyFileSync(join(SOURCE, 'app.css'), join(outDir, 'app.css'));
  copyFileSync(join(SOURCE, 'icon.svg'), join(outDir, 'icon.svg'));
  writeFileSync(join(outDir, 'index.html'), CONSOLE_INDEX_HTML);
  return ['index.html', 'app.js', 'app.css', 'icon.svg'];
};
