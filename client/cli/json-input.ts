/**
 * A command's JSON body from `--file` (a path) or `--body` (the JSON itself), with a usage error that says which
 * of them is wrong and how: none or both given, a file that cannot be read, text that is not JSON (with the
 * parser's reason), JSON that is not an object.
 */
import { readFileSync } from 'node:fs';

import type { Flags } from './flags.js';

/** The body, or undefined once a problem was reported to `f` (the usage error names it before anything is sent). */
export const jsonObjectInput = (
  f: Flags,
  command: string,
  /** What the JSON is, for the messages: `the JSON of POST /plans`. */
  what: string,
): Record<string, unknown> | undefined => {
  const file = f.str('file');
  const body = f.str('body');
  const problem = (message: string) => {
    f.standalone(`${command}: ${message}`, command);
    return undefined;
  };
  if (file !== undefined && body !== undefined) return problem('give --file or --body, not both');
  // Said without naming the flags: neither is needed on its own (the usage line below names both).
  if (file === undefined && body === undefined)
    return problem(`needs ${what}: its file, or the JSON itself (see the usage below)`);
  let text: string;
  const source = file === undefined ? '--body' : `--file ${file}`;
  try {
    text = file === undefined ? (body ?? '') : readFileSync(file, 'utf8');
  } catch (error) {
    return problem(`cannot read --file ${file}: ${(error as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return problem(`${source} is not valid JSON (${(error as Error).message.slice(0, 120)}); give ${what}`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    return problem(`${source} must be a JSON object: ${what}`);
  return parsed as Record<string, unknown>;
};
