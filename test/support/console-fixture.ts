/**
 * The console's browser tests' set-up: the local stack (npm start's), the system's chromium, and a watched page per
 * test that fails the test on a console error or an uncaught exception in the page (a CSP violation included).
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';

import type { LocalStack, LocalStackOptions } from '../../local/run-local.js';
import { launchChromium, watchedPage } from './browser.js';
import type { EmulatorControl } from './emulator-control.js';
import { useLocalStack } from './local-stack-fixture.js';
import { CONDITION_BOUND_MS } from './processes.js';

export interface ConsoleState {
  stack: LocalStack;
  control: EmulatorControl;
  /** This test's page. */
  page: Page;
  /** The page's console errors and uncaught exceptions so far (a test may take out one it expects). */
  problems: string[];
}

/** Waits for what the page shows (a browser's answer takes longer than expect.poll's default second). */
export const eventually = <T>(read: () => Promise<T>) =>
  expect.poll(read, { timeout: CONDITION_BOUND_MS, interval: 100 });

/**
 * The stack, the browser and a page per test; `set` is told the state each time it changes (a new page). Answers
 * `open(view)` (the console at `#/view`) and `newPage(viewport)` (this test's page replaced by one of that size).
 * `options`: the stack's (npm start's defaults when none).
 */
export const useConsolePage = (set: (state: ConsoleState) => void, options: LocalStackOptions = {}) => {
  const state = {} as ConsoleState;
  let browser: Browser | undefined;
  useLocalStack(options, (stack, control) => {
    Object.assign(state, { stack, control });
  });
  const newPage = async (viewport?: { width: number; height: number }) => {
    if (state.page && !state.page.isClosed()) await state.page.close();
    expect(state.problems ?? []).toEqual([]);
    ({ page: state.page, problems: state.problems } = await watchedPage(browser!, viewport));
    set({ ...state });
  };
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });
  beforeEach(() => newPage());
  afterEach(async () => {
    await state.page.close();
    expect(state.problems).toEqual([]);
  });
  return {
    open: (view: string) => state.page.goto(`${state.stack.api.url}/console/#/${view}`),
    newPage,
  };
};
