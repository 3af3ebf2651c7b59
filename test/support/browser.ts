/**
 * The system's chromium driven by playwright-core (no browser download): launched once per test file, a page that
 * records every console error and uncaught exception, axe-core's check of a page, and the docs' screenshots (written
 * only when CONSOLE_SCREENSHOTS=1, so a normal run leaves the tree clean). No chromium is a failure saying how to
 * install it, never a skip: CI installs it (.ci/run).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { type Browser, chromium, type Page } from 'playwright-core';

import { CONDITION_BOUND_MS, READY_BOUND_MS } from './processes.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');

/** Where chromium is: CHROMIUM_PATH, Debian's /usr/bin/chromium, or `chromium` on the PATH. */
export const chromiumPath = (): string => {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(
    (path): path is string => Boolean(path),
  );
  const found = candidates.find((path) => existsSync(path));
  if (found) return found;
  try {
    return execFileSync('sh', ['-c', 'command -v chromium'], { encoding: 'utf8' }).trim();
  } catch {
    throw new Error(
      'The console tests need chromium and none is installed: `sudo apt-get install -y --no-install-recommends chromium` ' +
        '(Debian/Ubuntu; .ci/run does this in CI), or set CHROMIUM_PATH to a Chromium or Chrome binary.',
    );
  }
};

export const launchChromium = (): Promise<Browser> =>
  chromium.launch({ executablePath: chromiumPath(), args: ['--no-sandbox'], timeout: READY_BOUND_MS });

/** A page whose console errors and uncaught exceptions, while it shows the console, are kept in `problems`. */
export const watchedPage = async (
  browser: Browser,
  viewport = { width: 1200, height: 900 },
): Promise<{ page: Page; problems: string[] }> => {
  const page = await browser.newPage({ viewport });
  // Each wait of the page (a click's target, a navigation) is for a condition; this only bounds it, generously.
  page.setDefaultTimeout(CONDITION_BOUND_MS);
  const problems: string[] = [];
  // The console's own errors: not those of a page of another site it sends the browser to (the broker's login).
  const onConsole = () => new URL(page.url()).pathname.startsWith('/console/');
  page.on('console', (message) => {
    if (message.type() === 'error' && onConsole()) problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => {
    if (onConsole()) problems.push(`page error: ${error.message}`);
  });
  return { page, problems };
};

const axeSource = (): string =>
  readFileSync(createRequire(join(ROOT, 'package.json')).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * axe-core's serious and critical violations of the page, as `rule: target` lines. It is evaluated through the
 * DevTools protocol, which the page's content security policy does not govern (a script tag would be refused).
 */
export const axeViolations = async (page: Page): Promise<string[]> => {
  await page.evaluate(axeSource());
  const violations = await page.evaluate(async () => {
    // In the page (this file's types have no DOM): axe, loaded just above, checks the whole document.
    const page = globalThis as unknown as { axe: { run: (context: unknown) => Promise<AxeResult> }; document: unknown };
    const result = await page.axe.run(page.document);
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      targets: v.nodes.map((n) => n.target.join(' ')),
    }));
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.targets.join(', ')}`);
};

interface AxeResult {
  violations: { id: string; impact?: string | null; nodes: { target: string[] }[] }[];
}

/** docs/images/console-<name>.png, only when CONSOLE_SCREENSHOTS=1. */
export const screenshot = async (page: Page, name: string): Promise<void> => {
  if (process.env.CONSOLE_SCREENSHOTS !== '1') return;
  const dir = join(ROOT, 'docs', 'images');
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: join(dir, `console-${name}.png`), fullPage: true });
};
