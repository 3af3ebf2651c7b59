/**
 * Bundles each function the way the CDK stack deploys it (esbuild, ESM, minified, node22, AWS SDK external since
 * the nodejs22.x runtime provides it), so the benchmarks measure what runs in Lambda.
 */
import { build } from 'esbuild';
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { OPERATIONS } from '../functions/operations.js';

export const BUNDLE_DIR = join('dist', 'bench');

export interface Bundle {
  name: string;
  file: string;
  bytes: number;
}

const bundleOne = async (name: string, entry: string): Promise<Bundle> => {
  const outfile = join(BUNDLE_DIR, name, 'index.mjs');
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node22',
    format: 'esm',
    minify: true,
    sourcemap: false,
    mainFields: ['module', 'main'],
    external: ['@aws-sdk/*', '@smithy/*'],
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
    logLevel: 'silent',
  });
  return { name, file: outfile, bytes: statSync(outfile).size };
};

export const bundleFunctions = async (): Promise<{ functions: Bundle[]; empty: Bundle }> => {
  mkdirSync(join(BUNDLE_DIR, 'empty-src'), { recursive: true });
  const emptyEntry = join(BUNDLE_DIR, 'empty-src', 'handler.ts');
  writeFileSync(emptyEntry, 'export const handler = async () => ({ ok: true });\n');
  const functions = [];
  for (const op of OPERATIONS) functions.push(await bundleOne(op.id, join('functions', 'handlers', `${op.id}.ts`)));
  return { functions, empty: await bundleOne('empty', emptyEntry) };
};
