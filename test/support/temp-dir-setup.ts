/**
 * vitest globalSetup: the run's temporary files in one directory of its own, removed when the run ends. A CDK `App`
 * without an `outdir` synthesizes into a new `cdk.out*` directory under the OS's temp dir and never removes it, so
 * the infra tests and every synth would otherwise leave thousands behind (enough to fill a disk over a day of runs).
 * Workers and child processes started after this inherit TMPDIR, which `os.tmpdir()` reads.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'gtt-gateway-test-'));
  process.env.TMPDIR = dir;
  return () => rmSync(dir, { recursive: true, force: true });
}
