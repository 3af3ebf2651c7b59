// `npm run build` / `npm pack` in client/: the package's JavaScript and type declarations in dist/, compiled by the
// repository's own TypeScript. The generated OpenAPI types are a declaration file already: copied as they are.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const tsc = createRequire(join(here, '..', 'package.json')).resolve('typescript/bin/tsc');
rmSync(join(here, 'dist'), { recursive: true, force: true });
execFileSync(process.execPath, [tsc, '-p', join(here, 'tsconfig.build.json')], { stdio: 'inherit' });
mkdirSync(join(here, 'dist', 'generated'), { recursive: true });
copyFileSync(join(here, 'generated', 'openapi.d.ts'), join(here, 'dist', 'generated', 'openapi.d.ts'));
