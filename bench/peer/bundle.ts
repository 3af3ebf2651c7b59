/**
 * The hand-written peers bundled as the functions are (infra/constructs/gateway-function.ts): esbuild, ESM, minified,
 * node22, the SDK bundled, the same createRequire banner. Written to a temporary directory; `dispose` removes it.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const PEERS = ['https', 'fetch'] as const;
export type PeerName = (typeof PEERS)[number];

export interface PeerBundles {
  file: Record<PeerName, string>;
  sizeKB: Record<PeerName, number>;
  dispose(): void;
}

export const bundlePeers = async (): Promise<PeerBundles> => {
  const { build } = await import('esbuild');
  const dir = mkdtempSync(join(tmpdir(), 'gtt-peer-'));
  const file = {} as Record<PeerName, string>;
  const sizeKB = {} as Record<PeerName, number>;
  for (const name of PEERS) {
    file[name] = join(dir, name, 'index.mjs');
    await build({
      entryPoints: [join(import.meta.dirname, `${name}.mjs`)],
      outfile: file[name],
      bundle: true,
      minify: true,
      sourcemap: true,
      format: 'esm',
      platform: 'node',
      target: 'node22',
      mainFields: ['module', 'main'],
      nodePaths: [join(process.cwd(), 'node_modules')],
      banner: {
        js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
      },
      logLevel: 'silent',
    });
    sizeKB[name] = Math.round((statSync(file[name]).size / 1024) * 10) / 10;
  }
  return { file, sizeKB, dispose: () => rmSync(dir, { recursive: true, force: true }) };
};
