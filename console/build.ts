/**
 * STAND-IN (helper D) for helper C's console/build.ts, with the agreed signature only, so the stack synthesizes
 * the console's files before C's branch is merged; the lead takes C's version at merge.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { buildSync } from 'esbuild';

const SRC = join(import.meta.dirname, 'src');

export const buildConsoleSync = (outDir: string): string[] => {
  buildSync({
    entryPoints: [join(SRC, 'config.ts')],
    bundle: true,
    format: 'esm',
    minify: true,
    platform: 'browser',
    target: 'es2022',
    outfile: join(outDir, 'app.js'),
    legalComments: 'none',
    logLevel: 'silent',
  });
  writeFileSync(join(outDir, 'app.css'), 'body{font-family:system-ui,sans-serif}\n');
  writeFileSync(
    join(outDir, 'index.html'),
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>gtt-gateway</title>' +
      '<link rel="stylesheet" href="app.css"><script type="module" src="app.js"></script></head><body></body></html>\n',
  );
  return ['index.html', 'app.js', 'app.css'];
};
