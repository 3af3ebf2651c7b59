/**
 * The closest known name to a mistyped one, for "did you mean" hints: the edit distance with a swap of two
 * neighbouring letters counted as one edit (`--qyt` is one edit from `--qty`, `--tirgger` one from `--trigger`).
 */

/**
 * Edits from `a` to `b`: insertions, deletions, substitutions and swaps of neighbours (optimal string alignment). The
 * gateway's is functions/base/schemas/edit-distance.ts: the client imports nothing outside client/, so this is a copy
 * (test/unit/edit-distance.test.ts holds the two to the same answers).
 */
export const editDistance = (a: string, b: string): number => {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
};

/** Names traders and the wire use for a flag: `--quantity` means `--qty`, `--prc` means `--price`. */
const SYNONYMS: Readonly<Record<string, readonly string[]>> = {
  quantity: ['qty'],
  exchange: ['exch'],
  symbol: ['tsym'],
  prc: ['price', 'target-price'],
  d: ['trigger'],
  prd: ['product'],
  trantype: ['side'],
  prctyp: ['price-type'],
  type: ['price-type'],
  ret: ['retention'],
  ai_t: ['alert'],
};

/**
 * The candidate closest to `name` (case-insensitive), if close enough to be meant: within a third of its length
 * (at least 1, at most 3 edits), or a candidate that starts with it or it with the candidate (`--quant`, `--dryrun`).
 */
export const closest = (name: string, candidates: readonly string[]): string | undefined => {
  const wanted = name.toLowerCase();
  const synonym = SYNONYMS[wanted]?.find((s) => candidates.includes(s));
  if (synonym !== undefined) return synonym;
  let best: { candidate: string; distance: number } | undefined;
  for (const candidate of candidates) {
    const distance = editDistance(wanted, candidate.toLowerCase());
    if (best === undefined || distance < best.distance) best = { candidate, distance };
  }
  if (best === undefined) return undefined;
  const allowed = Math.min(3, Math.max(1, Math.floor(wanted.length / 3)));
  if (best.distance <= allowed) return best.candidate;
  const squeezed = wanted.replace(/[-_]/g, '');
  return candidates.find((c) => {
    const k = c.toLowerCase().replace(/[-_]/g, '');
    return squeezed.length >= 3 && (k === squeezed || k.startsWith(squeezed) || squeezed.startsWith(k));
  });
};
