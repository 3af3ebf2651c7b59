import { describe, expect, it } from 'vitest';
import { z } from 'zod';

describe('toolchain', () => {
  it('runs zod 4 under vitest', () => {
    expect(z.string().safeParse(1).success).toBe(false);
  });
});
