/**
 * `GTT_LOCAL_PERMISSIONS` (local/permissions/enforce.ts): on unless `off`; a value that is neither is refused naming
 * both, so a typo never leaves the check on unseen; a stack's own `permissions` option wins.
 */
import { describe, expect, it } from 'vitest';

import { permissionsWanted } from '../../local/permissions/enforce.js';

describe('GTT_LOCAL_PERMISSIONS', () => {
  it('is on when unset, empty or on, off when off (any case); the option wins', () => {
    expect(permissionsWanted(undefined, undefined)).toBe(true);
    expect(permissionsWanted(undefined, '')).toBe(true);
    expect(permissionsWanted(undefined, 'ON')).toBe(true);
    expect(permissionsWanted(undefined, ' Off ')).toBe(false);
    expect(permissionsWanted(false, 'on')).toBe(false);
    expect(permissionsWanted(true, 'off')).toBe(true);
  });

  it('refuses anything else, naming the two values', () => {
    expect(() => permissionsWanted(undefined, 'of')).toThrow(
      'GTT_LOCAL_PERMISSIONS must be on or off (or unset: on); got "of"',
    );
    expect(() => permissionsWanted(undefined, 'false')).toThrow(/must be on or off/);
  });
});
