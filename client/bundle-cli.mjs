// The command line as one built file (client/cli/program.ts and what it imports, bundled by the repository's
// esbuild), and whether a built file is older than its sources. `npm run gtt` (run-gtt.mjs), the package build
// (build.mjs) and the tests (test/support/cli-bundle.ts) build it with these same options; the repository's version
// is written into it (`--version`). Beside the bundle, its inputs (`<bundle>.meta.json`, paths relative to the
// repository): a bundle is stale when any of them, this file or package.json is newer than it or gone. esbuild is imported only to build: the check alone is a few stat calls.
import { chmodSync, readFileSync, renameSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import process from 'node:process';
import { pathToFileURL } from 'node:url';

export const CLI_ENTRY = 'client/cli/program.ts';
/** The client package's own dependencies: resolved where the bundle runs, loaded only by the commands that need them. */
export const CLI_EXTERNAL = ['@aws-sdk/credential-provider-node', 'aws4fetch', 'openapi-fetch'];
/** Read by every build beside the sources: this file's options and package.json's version. */
const ALWAYS = ['client/bundle-cli.mjs', 'package.json'];

export const metaOf = (outfile) => `${outfile.replace(/\.js$/, '')}.meta.json`;

/** Builds `outfile` (and its meta file) from the sources under `root`; each is written whole, then renamed in place. */
export const buildCli = async (root, outfile) => {
  const started = new Date();
  const esbuild = createRequire(join(root, 'package.json')).resolve('esbuild');
  const { build } = await import(pathToFileURL(esbuild).href);
  const temp = `${outfile}.${process.pid}.tmp`;
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const { metafile } = await build({
    absWorkingDir: root,
    entryPoints: [CLI_ENTRY],
    outfile: temp,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    banner: { js: '#!/usr/bin/env node' },
    define: { GTT_VERSION: JSON.stringify(version) },
    external: CLI_EXTERNAL,
    metafile: true,
    logLevel: 'warning',
  });
  chmodSync(temp, 0o755);
  // Dated when the build started: a source saved during the build is newer than the bundle, so the next run rebuilds.
  utimesSync(temp, started, started);
  writeFileSync(`${temp}.meta`, `${JSON.stringify(Object.keys(metafile.inputs).sort(), null, 2)}\n`);
  renameSync(`${temp}.meta`, metaOf(outfile));
  renameSync(temp, outfile);
};

/** Whether `outfile` is missing, or older than one of its inputs or this file (or one of them is gone). */
export const cliIsStale = (root, outfile) => {
  const built = statSync(outfile, { throwIfNoEntry: false })?.mtimeMs;
  if (built === undefined) return true;
  let inputs;
  try {
    inputs = JSON.parse(readFileSync(metaOf(outfile), 'utf8'));
  } catch {
    return true;
  }
  return [...inputs, ...ALWAYS].some((file) => {
    const changed = statSync(join(root, file), { throwIfNoEntry: false })?.mtimeMs;
    return changed === undefined || changed > built;
  });
};

/** Builds `outfile` when it is stale; says whether it did. */
export const ensureCli = async (root, outfile) => {
  if (!cliIsStale(root, outfile)) return false;
  await buildCli(root, outfile);
  return true;
};
