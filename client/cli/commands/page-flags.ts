/** The paging flags of the list commands (list, triggered, events): one page, a later page, or every page. */
import { type FlagSpec, may } from '../command.js';
import type { Flags } from '../flags.js';

export const PAGE_FLAGS: readonly FlagSpec[] = [may('limit', 'N'), may('cursor', 'C'), may('all')];

/** --limit and --cursor as the list operations take them (the gateway checks them); --all with --cursor is refused. */
export const pageFlags = (f: Flags): { limit?: string; cursor?: string } => {
  if (f.values.all && f.str('cursor')) f.standalone('--all starts from the first page: leave out --cursor');
  return {
    ...(f.str('limit') ? { limit: f.str('limit') } : {}),
    ...(f.str('cursor') ? { cursor: f.str('cursor') } : {}),
  };
};
