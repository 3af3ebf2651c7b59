/**
 * The system model's commands by family, and a weighting of families for a focused long run (`npm run model --
 * --weights risk=8,exit=8` or `--focus risk,coverage`): each command of a weighted family appears that many times in
 * the list fast-check draws from (system-model.ts's COMMANDS, weighted by repetition), instead of its default count;
 * every other command keeps its own. A command in two weighted families takes the larger weight. The default list
 * (npm test's bounded run, and `npm run model` without these options) is COMMANDS as it is.
 */
import type fc from 'fast-check';

import { otherCommands as o } from './system-actors.js';
import { changeCommands as ch } from './system-changes.js';
import { closeCommands as cl } from './system-close.js';
import { orderCommands as c } from './system-commands.js';
import { coverGapCommands as cg } from './system-cover-gap.js';
import { exitCommands as x } from './system-exit.js';
import { exitGapCommands as xg } from './system-exit-gap.js';
import { exitPlusCommands as xp } from './system-exit-plus.js';
import { haltCommands as h } from './system-halts.js';
import { mcpCommands as m } from './system-mcp.js';
import { mcpReadCommands as mr } from './system-mcp-reads.js';
import { mcpRiskCommands as mk } from './system-mcp-risk.js';
import { COMMANDS } from './system-model.js';
import { optionCommands as op } from './system-options.js';
import { protectCommands as pc } from './system-protect.js';
import { readCommands as r } from './system-reads.js';
import { riskCommands as rk } from './system-risk.js';
import { signalCommands as g } from './system-signals.js';
import type { Sys } from './system-state.js';

type Cmd = fc.Arbitrary<fc.AsyncCommand<object, Sys>>;

/** `--focus` gives each family it names this weight. */
export const FOCUS_WEIGHT = 8;

/** Each family's commands, by the file that holds them (positions: the fills and market moves that make and mark them). */
export const FAMILIES: Record<string, readonly unknown[]> = {
  orders: Object.values(c),
  changes: Object.values(ch),
  actors: Object.values(o),
  halts: Object.values(h),
  signals: Object.values(g),
  mcp: [...Object.values(m), ...Object.values(mr), ...Object.values(mk)],
  reads: Object.values(r),
  risk: [...Object.values(rk), mk.mcpSettings],
  coverage: [...Object.values(pc), mk.mcpSettings, ...Object.values(cg)],
  exit: [...Object.values(x), ...Object.values(xp), ...Object.values(xg), ...Object.values(cl)],
  positions: [o.fills, o.ltp, ...Object.values(cl)],
  options: Object.values(op),
};

/**
 * Reads `risk=8,exit=4` (weights) and `risk,exit` (focus, each FOCUS_WEIGHT) into one map; throws a message naming
 * the families when one is unknown or a weight is not a whole number from 1 to 100.
 */
export const parseWeights = (weights: string, focus: string): Map<string, number> => {
  const out = new Map<string, number>();
  const entries = [
    ...focus
      .split(',')
      .filter(Boolean)
      .map((f) => `${f}=${FOCUS_WEIGHT}`),
    ...weights.split(',').filter(Boolean),
  ];
  for (const entry of entries) {
    const [family = '', n = '', ...rest] = entry.split('=');
    const weight = Number(n);
    if (!(family in FAMILIES))
      throw new Error(`unknown family "${family}"; the families are ${Object.keys(FAMILIES).join(', ')}`);
    if (rest.length || !Number.isInteger(weight) || weight < 1 || weight > 100)
      throw new Error(`"${entry}": a weight is family=N with N a whole number from 1 to 100`);
    out.set(family, weight);
  }
  return out;
};

/** COMMANDS with each command of a weighted family repeated as its weight says (in the list's order). */
export const weighted = (weights: ReadonlyMap<string, number>): Cmd[] => {
  if (weights.size === 0) return COMMANDS;
  const weightOf = (cmd: Cmd): number | undefined => {
    const ws = [...weights].filter(([family]) => FAMILIES[family]!.includes(cmd)).map(([, w]) => w);
    return ws.length ? Math.max(...ws) : undefined;
  };
  const out: Cmd[] = [];
  const done = new Set<Cmd>();
  for (const cmd of COMMANDS) {
    const weight = weightOf(cmd);
    if (weight === undefined) out.push(cmd);
    else if (!done.has(cmd)) {
      done.add(cmd);
      for (let i = 0; i < weight; i += 1) out.push(cmd);
    }
  }
  return out;
};

/** How many entries of a list each weighted family holds (for the run's header). */
export const familyShares = (commands: readonly Cmd[], families: Iterable<string>): Record<string, number> =>
  Object.fromEntries([...families].map((f) => [f, commands.filter((cmd) => FAMILIES[f]!.includes(cmd)).length]));
