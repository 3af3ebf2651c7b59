/**
 * `cdk synth` without a block per bundle: aws-cdk-lib's asset staging writes `Bundling asset <path>...` to stderr for
 * every function it bundles, whatever the log level, and esbuild its size summary (quieted in gateway-function.ts with
 * `logLevel: ERROR`). While the app synthesizes those lines are counted instead of printed, and one line says how
 * many were bundled. `GTT_VERBOSE_BUNDLING=1` prints each again. Every other line on stderr passes unchanged.
 */
const BUNDLING_LINE = /^Bundling asset \S+\.\.\.\r?\n$/;

/** Starts counting the bundling lines; the function it answers stops, and prints the count. */
export const quietBundling = (env: NodeJS.ProcessEnv = process.env): (() => void) => {
  if (env.GTT_VERBOSE_BUNDLING === '1') return () => undefined;
  let bundled = 0;
  const write = process.stderr.write;
  const filtered = function (this: NodeJS.WriteStream, chunk: unknown, ...rest: unknown[]): boolean {
    if (typeof chunk === 'string' && BUNDLING_LINE.test(chunk)) {
      bundled++;
      return true;
    }
    return (write as (this: NodeJS.WriteStream, ...args: unknown[]) => boolean).call(this, chunk, ...rest);
  };
  process.stderr.write = filtered as typeof process.stderr.write;
  return () => {
    process.stderr.write = write;
    if (bundled > 0)
      process.stderr.write(
        `gtt-gateway: bundled ${bundled} function(s) with esbuild (GTT_VERBOSE_BUNDLING=1 shows each)\n`,
      );
  };
};
