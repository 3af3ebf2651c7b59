/**
 * The daily login from the console, in chromium: the Today view's button sends the browser to the broker's login page
 * (the emulator's), and back on Today the session is the new one. A file of its own: the login replaces the local
 * stack's session, which the other files' emulator resets would then expire.
 */
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';

import type { LocalStack } from '../../local/run-local.js';
import { eventually, useConsolePage } from '../support/console-fixture.js';

let stack: LocalStack;
let page: Page;
const { open } = useConsolePage((state) => ({ stack, page } = state));

it("logs in at the broker's page from the login button, Today shows the new session, and logs out after asking", async () => {
  await open('today');
  await page.getByRole('button', { name: 'Log in at the broker' }).click();
  await page.waitForURL((url) => url.href.startsWith(stack.emulator.url));
  await page.getByLabel('User id').fill(stack.emulator.uid);
  await page.getByLabel('Password').fill(stack.emulator.login.password);
  await page.getByLabel('OTP').fill(stack.emulator.emulator.login.currentOtp());
  await page.getByRole('button', { name: 'LOGIN' }).click();
  await page.waitForURL((url) => url.pathname === '/session/oauth/callback');
  await open('today');
  await eventually(() => page.locator('section[aria-labelledby="session-title"]').textContent()).toMatch(
    /Since\d{2} \w{3}, \d{2}:\d{2}:\d{2} IST \(oauth\)/,
  );
  await page.getByRole('button', { name: 'Log out' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Log out' }).click();
  await eventually(() => page.locator('[data-session]').getAttribute('data-session')).toBe('down');
  expect(await page.locator('[data-session]').textContent()).toContain('Not usable');
});
