/**
 * The routes as API Gateway will take them: an HTTP API refuses (ConflictException, "has a conflicting variable on
 * the same hierarchical level") two routes whose paths agree up to a segment that is a variable in both but named
 * differently (`/signals/{signalId}` beside `/signals/{token}`, as a first draft of GET /signals/{id} had it), and a route key given twice. Synth does not check
 * this; only a deploy would fail.
 */
import { describe, expect, it } from 'vitest';

import { ROUTES } from '../../functions/manifest/index.js';

const isVariable = (segment: string) => /^\{[^}]+\}$/.test(segment);

describe('route keys', () => {
  it('no two routes name a variable differently at the same level of the same path', () => {
    const conflicts: string[] = [];
    const paths = [...new Set(ROUTES.map(({ route }) => route.path))];
    for (const [i, a] of paths.entries()) {
      for (const b of paths.slice(i + 1)) {
        const as = a.split('/');
        const bs = b.split('/');
        for (let k = 0; k < Math.min(as.length, bs.length); k++) {
          const [x, y] = [as[k]!, bs[k]!];
          if (isVariable(x) && isVariable(y)) {
            if (x !== y) conflicts.push(`${a} and ${b}: ${x} and ${y}`);
          } else if (x !== y) break;
        }
      }
    }
    expect(conflicts).toEqual([]);
  });

  it('no route key twice', () => {
    const keys = ROUTES.map(({ route }) => `${route.method} ${route.path}`);
    expect(keys.filter((key, i) => keys.indexOf(key) !== i)).toEqual([]);
  });
});
