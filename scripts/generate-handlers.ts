/**
 * Writes the handler entry files (functions/handlers/<id>.ts) from the function manifest, formatted as the
 * repository formats code; `--check` writes nothing and fails (exit 1) naming each file that differs, is missing, or
 * is not in the manifest.
 *
 *   npm run handlers          # write
 *   npm run handlers:check    # fail on drift (part of npm test)
 */
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import * as prettier from 'prettier';

import { handlerFilePath, handlerFileText } from '../functions/manifest/handler-files.js';
import { FUNCTIONS } from '../functions/manifest/index.js';

const ROOT = join(import.meta.dirname, '..');
const check = process.argv.includes('--check');

const formatted = async (path: string, text: string): Promise<string> =>
  prettier.format(text, { ...(await prettier.resolveConfig(join(ROOT, path))), filepath: join(ROOT, path) });

const problems: string[] = [];
const wanted = new Set<string>();
for (const entry of FUNCTIONS) {
  const path = handlerFilePath(entry);
  wanted.add(path);
  const text = await formatted(path, handlerFileText(entry));
  const current = existsSync(join(ROOT, path)) ? readFileSync(join(ROOT, path), 'utf8') : undefined;
  if (current === text) continue;
  if (check) problems.push(`${path}: ${current === undefined ? 'missing' : 'differs from the manifest'}`);
  else writeFileSync(join(ROOT, path), text);
}
for (const name of readdirSync(join(ROOT, 'functions/handlers'))) {
  const path = `functions/handlers/${name}`;
  if (!name.endsWith('.ts') || wanted.has(path)) continue;
  if (check) problems.push(`${path}: not a function of the manifest`);
  else rmSync(join(ROOT, path));
}
if (problems.length) {
  console.error(`The handler files are out of date:\n  ${problems.join('\n  ')}\nRun \`npm run handlers\` and commit.`);
  process.exit(1);
}
if (!check) console.log(`${wanted.size} handler files written from the manifest.`);
