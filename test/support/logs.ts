/**
 * Reading what a Powertools logger writes. Powertools for AWS Lambda (TypeScript) has no public sink option: it
 * writes through its own `console` instance, so this is the one place that swaps that instance for a recorder.
 */
import { Logger } from '@aws-lambda-powertools/logger';
import type { ConstructorOptions } from '@aws-lambda-powertools/logger/types';

export interface CapturedLogger {
  logger: Logger;
  /** Every line written, in order (JSON text). */
  lines: string[];
}

/** Points an existing logger's output at `sink` (every level). */
export const redirectLogger = (logger: Logger, sink: (line: string) => void): Logger => {
  const write = (line: unknown) => sink(String(line));
  (
    logger as unknown as { console: Record<'info' | 'warn' | 'error' | 'debug' | 'log', (line: unknown) => void> }
  ).console = {
    info: write,
    warn: write,
    error: write,
    debug: write,
    log: write,
  };
  return logger;
};

/** A new logger (DEBUG unless told otherwise) whose lines are kept in `lines`, or also handed to `sink`. */
export const captureLogger = (options: ConstructorOptions = {}, sink?: (line: string) => void): CapturedLogger => {
  const lines: string[] = [];
  const logger = redirectLogger(new Logger({ logLevel: 'DEBUG', ...options }), (line) => {
    lines.push(line);
    sink?.(line);
  });
  return { logger, lines };
};
