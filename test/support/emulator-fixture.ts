/**
 * One emulator per test file, on 127.0.0.1: started before the file's tests, reset before each, closed after.
 * `const emu = useEmulator();` then `emu().url`, `emu().control`.
 */
import { afterAll, beforeAll, beforeEach } from 'vitest';

import { type RunningEmulator, startEmulator, type StartOptions } from '../../emulator/server.js';
import { type EmulatorControl, emulatorControl } from './emulator-control.js';
import { wireGtt } from './wire-order.js';

export type EmulatorFixture = RunningEmulator & { control: EmulatorControl };

export const useEmulator = (
  options: StartOptions = {},
  { resetEach = true }: { resetEach?: boolean } = {},
): (() => EmulatorFixture) => {
  let running: EmulatorFixture | undefined;
  beforeAll(async () => {
    const emulator = await startEmulator({ port: 0, ...options });
    running = Object.assign(emulator, { control: emulatorControl(emulator.url) });
  });
  afterAll(async () => {
    await running?.close();
  });
  if (resetEach) {
    beforeEach(async () => {
      await running!.control.reset();
    });
  }
  return () => {
    if (!running) throw new Error('useEmulator(): the emulator is started in beforeAll; use it inside a test or hook');
    return running;
  };
};

/**
 * A PlaceGTTOrder jData as the broker's clients send it (every scalar a string): a buy of 10 RELIANCE at 2500.5 when
 * the price falls to 2490, for the emulator's demo account.
 */
export const gttJData = (
  emulator: { uid: string; actid: string },
  over: Record<string, unknown> = {},
): Record<string, unknown> => wireGtt(over, emulator);
