/**
 * Every deploy example of the docs (`npm run deploy -- ...`, `cdk deploy ...`) goes through the stack's own settings
 * code (infra/settings: the context check, the broker setup) as `cdk synth` would, and its broker address fits its
 * token mode: a preset's jKey API (`.../NorenWClientTP`) with jKey, its OAuth API with its own mode. So a doc can no
 * longer deploy `-c broker=shoonya` (Bearer) against the jKey URL.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { BROKER_PRESETS } from '../../functions/base/broker/presets.js';
import { BROKER_CONTEXT_KEYS, resolveBrokerSetup } from '../../infra/settings/broker-setup.js';
import { checkContextSettings } from '../../infra/settings/context.js';
import { docPages } from '../support/doc-pages.js';

const ROOT = join(import.meta.dirname, '..', '..');
const FILES = ['README.md', ...docPages()];

interface Example {
  where: string;
  line: string;
  context: Record<string, string>;
  parameters: Record<string, string>;
}

const DEPLOY = /^(?:npx )?(?:npm run deploy\b(?!:)|cdk deploy)/;

/** The deploy commands of a file: lines of its code blocks (continuations joined), and inline code that is one. */
const commandsOf = (text: string): { line: number; command: string }[] => {
  let fenced = false;
  return text.split('\n').flatMap((raw, i) => {
    if (/^\s*```/.test(raw)) {
      fenced = !fenced;
      return [];
    }
    const spans = fenced ? [raw.replace(/#.*$/, '').trim()] : [...raw.matchAll(/`([^`]+)`/g)].map((m) => m[1]!.trim());
    return spans.filter((span) => DEPLOY.test(span)).map((command) => ({ line: i + 1, command }));
  });
};

/** Deploy commands, with their `-c name=value` and `--parameters [Stack:]Name=value`. */
const examples = (): Example[] =>
  FILES.flatMap((file) =>
    commandsOf(readFileSync(join(ROOT, file), 'utf8').replace(/\\\n\s*/g, ' ')).map(({ line, command }) => {
      const context = Object.fromEntries([...command.matchAll(/-c\s+([\w.-]+)=(\S+)/g)].map((m) => [m[1]!, m[2]!]));
      const parameters: Record<string, string> = {};
      for (const m of command.matchAll(/--parameters((?:\s+(?:\w+:)?\w+=\S+)+)/g))
        for (const p of m[1]!.trim().split(/\s+/)) {
          const [name, value] = p.replace(/^\w+:(?=\w+=)/, '').split(/=(.*)/s);
          parameters[name!] = value!;
        }
      return { where: `${file}:${line}`, line: command, context, parameters };
    }),
  );

/** Known broker addresses and the token mode each takes, from the presets. */
const MODE_OF = new Map<string, string>(
  Object.values(BROKER_PRESETS).flatMap((p) => [
    [p.baseUrl, p.auth] as const,
    ...('classicBaseUrl' in p && p.classicBaseUrl ? [[p.classicBaseUrl, 'jkey'] as const] : []),
  ]),
);

describe('deploy examples in the docs', () => {
  const found = examples();

  it('are found (the docs deploy with presets, parameters and settings)', () => {
    expect(found.length).toBeGreaterThanOrEqual(8);
    expect(found.some((e) => e.context.broker !== undefined)).toBe(true);
  });

  it.each(found.map((e) => [e.where, e] as const))(
    '%s passes the settings check, its address fits its token',
    (_, e) => {
      const context = Object.fromEntries(Object.entries(e.context).filter(([, v]) => !/[<>]|\.\.\./.test(v))) as Record<
        string,
        string
      >;
      expect(() => checkContextSettings(context), e.line).not.toThrow();
      const setup = resolveBrokerSetup(
        Object.fromEntries(BROKER_CONTEXT_KEYS.flatMap((k) => (context[k] === undefined ? [] : [[k, context[k]]]))),
      );
      const url = (e.parameters.BrokerBaseUrl ?? context.brokerBaseUrl ?? setup.baseUrl)?.replace(/\/+$/, '');
      const expected = url === undefined ? undefined : MODE_OF.get(url);
      if (expected !== undefined) expect(setup.auth, `${e.line}: ${url} takes ${expected}`).toBe(expected);
      // An address nobody lists (a placeholder, a custom broker) must not be a jKey API used with Bearer.
      else if (url !== undefined && /\/NorenWClientTP$/.test(url)) expect(setup.auth, e.line).toBe('jkey');
    },
  );

  it('the check would catch the old accounts example: shoonya (Bearer) on its jKey URL', () => {
    const setup = resolveBrokerSetup({ broker: 'shoonya' });
    expect(MODE_OF.get('https://api.shoonya.com/NorenWClientTP')).toBe('jkey');
    expect(setup.auth).toBe('bearer');
  });
});
