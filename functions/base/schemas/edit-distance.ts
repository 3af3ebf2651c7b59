/**
 * How far a mistyped name is from a known one, for the "did you mean" hints: a field's name (`contract/field-hints.ts`)
 * and a listed symbol (`broker/instruments.ts`). client/cli/suggest.ts has its own copy: the client imports nothing
 * outside client/ (docs/architecture.md, "Deliberate repetitions").
 */

/** Edits from `a` to `b`: insertions, deletions, substitutions and swaps of neighbours (optimal string alignment). */
export const editDistance = (a: string, b: string): number => {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  return d[a.length]![b.length]!;
};
