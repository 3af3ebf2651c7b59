/** Every page of a paged list: the client's `listAllOrders`, `allTriggered` and `allEvents`. */

type Page<K extends string> = { [P in K]: unknown[] } & { nextCursor?: string | undefined };

/**
 * Calls `page` with each `nextCursor` until there is none; the first page's answer with the `field` of every page,
 * without a cursor.
 */
export const followPages = async <K extends string, T extends Page<K>>(
  field: K,
  page: (cursor?: string) => Promise<T>,
): Promise<T> => {
  const first = await page();
  const items = [...first[field]];
  let next = first.nextCursor;
  while (next) {
    const more = await page(next);
    items.push(...more[field]);
    next = more.nextCursor;
  }
  const { nextCursor: _done, ...rest } = first;
  return { ...rest, [field]: items } as T;
};
