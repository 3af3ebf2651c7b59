/**
 * The field a caller meant when it sent one the schema does not know: the wire's short names for what traders call
 * `trigger`, `price`, `quantity`, `side`, `product`, `exchange` and `symbol`, and near-misses of a field's own name
 * (`qyt`). A hint names only a field the schema has at that place (an OCO leg has `trigger`, its order has `prc`).
 */
import type * as z from 'zod';

import { editDistance } from '../schemas/edit-distance.js';

/** Names traders use, and the jData field (base/schemas/input.ts) each is meant for. */
const MEANT: Readonly<Record<string, readonly string[]>> = {
  d: ['trigger'],
  trigger: ['d', 'trigger'],
  triggerprice: ['d', 'trgprc'],
  price: ['prc'],
  limitprice: ['prc'],
  quantity: ['qty'],
  side: ['trantype'],
  transactiontype: ['trantype'],
  product: ['prd'],
  producttype: ['prd'],
  exchange: ['exch'],
  symbol: ['tsym'],
  tradingsymbol: ['tsym'],
  pricetype: ['prctyp'],
  ordertype: ['prctyp'],
  retention: ['ret'],
  alerttype: ['ai_t'],
  id: ['al_id'],
  alertid: ['al_id'],
};

interface Def {
  type: string;
  shape?: Record<string, z.ZodType>;
  innerType?: z.ZodType;
  in?: z.ZodType;
  options?: readonly z.ZodType[];
  element?: z.ZodType;
  left?: z.ZodType;
  right?: z.ZodType;
  getter?: () => z.ZodType;
}
const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** The object schemas `schema` may be, through optional, default, pipe, union, intersection and lazy wrappers. */
const objectsOf = (schema: z.ZodType, depth = 0): Record<string, z.ZodType>[] => {
  if (depth > 12) return [];
  const def = defOf(schema);
  if (def.shape) return [def.shape];
  const inner = def.innerType ?? def.in ?? def.getter?.();
  if (inner) return objectsOf(inner, depth + 1);
  if (def.options) return def.options.flatMap((option) => objectsOf(option, depth + 1));
  if (def.left && def.right) return [...objectsOf(def.left, depth + 1), ...objectsOf(def.right, depth + 1)];
  return [];
};

/** The field names `schema` knows at `path` (an unknown key's place), through nested objects and arrays. */
export const knownFieldsAt = (schema: z.ZodType, path: readonly PropertyKey[]): string[] => {
  let level: z.ZodType[] = [schema];
  for (const part of path) {
    level = level.flatMap((s) => {
      if (typeof part === 'number') {
        const element = objectsOf(s).length ? undefined : elementOf(s);
        return element ? [element] : [];
      }
      // Own keys only: a caller's `constructor` or `__proto__` is no field of ours.
      return objectsOf(s).flatMap((shape) => (Object.hasOwn(shape, String(part)) ? [shape[String(part)]!] : []));
    });
  }
  return [...new Set(level.flatMap((s) => objectsOf(s).flatMap((shape) => Object.keys(shape))))];
};

const elementOf = (schema: z.ZodType, depth = 0): z.ZodType | undefined => {
  if (depth > 12) return undefined;
  const def = defOf(schema);
  if (def.element) return def.element;
  const inner = def.innerType ?? def.in ?? def.getter?.();
  return inner ? elementOf(inner, depth + 1) : undefined;
};

/** The known field `key` was meant to be, if one is plain: a trader's name for it, or a near-miss of its own. */
export const meantField = (key: string, known: readonly string[]): string | undefined => {
  // No field of ours is long: a long key is no near-miss (and is never compared letter by letter).
  if (key.length > 40) return undefined;
  const squeezed = key.toLowerCase().replace(/[-_\s]/g, '');
  const named = Object.hasOwn(MEANT, squeezed) ? MEANT[squeezed]!.find((field) => known.includes(field)) : undefined;
  if (named !== undefined) return named;
  const caseOnly = known.find((field) => field.toLowerCase() === key.toLowerCase());
  if (caseOnly !== undefined) return caseOnly;
  if (key.length < 3) return undefined;
  const near = known
    .map((field) => ({ field, edits: editDistance(key.toLowerCase(), field.toLowerCase()) }))
    .filter(({ field, edits }) => edits <= (Math.min(key.length, field.length) >= 6 ? 2 : 1))
    .sort((a, b) => a.edits - b.edits);
  return near.length === 1 || (near.length > 1 && near[0]!.edits < near[1]!.edits) ? near[0]!.field : undefined;
};
