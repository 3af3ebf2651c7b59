/**
 * One local stack (`npm start`'s: the API, the handlers, the emulator, the local AWS endpoints) per test file: started
 * before the file's tests, its emulator reset before each (with `clearFaults`, its faults cleared too), closed after.
 * `useLocalStack(options, (s, c) => { stack = s; control = c; })`; `options` may be a function, called in beforeAll,
 * for what is made there (a logger, say).
 */
import { afterAll, beforeAll, beforeEach } from 'vitest';

import { type LocalStack, type LocalStackOptions, startLocalStack } from '../../local/run-local.js';
import { type EmulatorControl, emulatorControl } from './emulator-control.js';

export const useLocalStack = (
  options: LocalStackOptions | (() => LocalStackOptions),
  started: (stack: LocalStack, control: EmulatorControl) => void,
  { clearFaults = false }: { clearFaults?: boolean } = {},
): void => {
  let stack: LocalStack | undefined;
  let control: EmulatorControl | undefined;
  beforeAll(async () => {
    stack = await startLocalStack(typeof options === 'function' ? options() : options);
    control = emulatorControl(stack.emulator.url);
    started(stack, control);
  });
  afterAll(async () => {
    await stack?.close();
  });
  beforeEach(async () => {
    await control!.reset();
    if (clearFaults) await control!.clearFaults();
  });
};
