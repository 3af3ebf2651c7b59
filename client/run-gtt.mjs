// `npm run gtt -- <command>`: runs the built command line, client/dist/gtt.js, rebuilding it first when a source is
// newer (about 0.1 s with esbuild; the check is a few stat calls). The bundle starts in a fraction of the time tsx
// takes to compile client/cli.ts at every start (docs/reference/client.md#the-command-line-as-a-built-program).
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import process from 'node:process';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { ensureCli } from './bundle-cli.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const bundle = join(here, 'dist', 'gtt.js');
try {
  mkdirSync(dirname(bundle), { recursive: true });
  await ensureCli(join(here, '..'), bundle);
} catch (error) {
  process.stderr.write(
    `gtt: could not build ${bundle} from client/ (${error instanceof Error ? error.message : String(error)}).\n` +
      'It is built with esbuild, a devDependency: run `npm ci` in the repository, or run `npx tsx client/cli.ts` instead.\n',
  );
  process.exit(1);
}
await import(pathToFileURL(bundle).href);
