/** Two small helpers every room that reads JSON or builds schemas needs: a JSON-object guard and build-once. */

/** A JSON object (not null, not an array). */
export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Built on first use, once: a Lambda builds only the schemas of its own operation, not those of every entry of the
 * table it imports (zod schema construction is a visible part of a cold start: docs/explanation/benchmarks.md).
 */
export const memo = <T>(build: () => T): (() => T) => {
  let value: T | undefined;
  return () => (value ??= build());
};
