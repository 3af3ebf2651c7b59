/** The plan commands: create a bracket or trailing-stop plan, list the plans, one plan, cancel one (docs/reference/plans.md). */
import type { PlanInput, PlanRecord } from '../../types.js';
import { command, may } from '../command.js';
import { jsonObjectInput } from '../json-input.js';
import { istTime } from '../render.js';
import { legsLine, legsSummary } from './plan-legs.js';
import { optionPlanText } from './plan-option.js';

/**
 * A plan on one line: id, kind, state, symbol (an option plan's index, level, pick and contract; a legs plan's net
 * premium and exit) and its GTTs; a legs plan's legs on a second line.
 */
const planLine = (p: PlanRecord): string =>
  [
    [
      p.planId,
      p.kind,
      p.state,
      p.legs ? legsSummary(p) : `${p.exch}:${p.tsym}`,
      optionPlanText(p),
      ...Object.entries(p.alIds).map(([name, id]) => `${name}=${String(id)}`),
      p.trigger ? `trigger ${p.trigger}` : '',
      p.position ? `position ${p.position.side === 'B' ? 'long' : 'short'} ${p.position.qty}` : '',
      p.reason ?? '',
    ]
      .filter(Boolean)
      .join('  '),
    legsLine(p),
  ]
    .filter(Boolean)
    .join('\n');

/** One action of a plan's record: when, what, and why where it says (a price that could not be read). */
const historyLine = (h: PlanRecord['history'][number]): string => {
  const reason = h.detail?.reason;
  return `  ${istTime(h.at)}  ${h.action}${typeof reason === 'string' ? `  ${reason}` : ''}`;
};

const planIdOf = (args: readonly string[]): string => args[0] ?? '';

export const planCreate = command({
  name: 'plan-create',
  flags: [may('file', 'plan.json'), may('body', "'<JSON of POST /plans>'"), may('key', 'K')],
  summary:
    'create a bracket or trailing-stop plan from --file or --body (the JSON of POST /plans, docs/reference/plans.md); the same --key again answers the same plan',
  input: (f) => ({
    plan: jsonObjectInput(f, 'plan-create', 'the JSON of POST /plans') as PlanInput,
    key: f.str('key'),
  }),
  run: ({ client, callOptions }, { plan, key }) =>
    client.createPlan(plan, { ...callOptions, ...(key ? { idempotencyKey: key } : {}) }),
  render: (r) => `${r.idempotency?.replayed ? 'plan already created' : 'created'} ${planLine(r)}`,
});

export const plans = command({
  name: 'plans',
  flags: [],
  summary: "the account's plans: state and GTTs, one line each (every page)",
  run: async ({ client, callOptions }) => {
    // Every page (the API pages plans like orders).
    const all: PlanRecord[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.plans(cursor ? { cursor } : {}, callOptions);
      all.push(...page.plans);
      cursor = page.nextCursor;
    } while (cursor);
    return { plans: all };
  },
  render: (r) => (r.plans.length ? r.plans.map(planLine).join('\n') : 'no plans'),
});

export const plan = command({
  name: 'plan',
  args: ['planId'],
  flags: [],
  summary: 'one plan, with its history of actions',
  input: (_f, args) => planIdOf(args),
  run: ({ client, callOptions }, planId) => client.getPlan(planId, callOptions),
  render: (r) => [planLine(r), ...r.history.map(historyLine)].join('\n'),
});

export const planCancel = command({
  name: 'plan-cancel',
  args: ['planId'],
  flags: [],
  summary: "cancel a plan: its live GTT and the plan's next steps; says what is left open",
  input: (_f, args) => planIdOf(args),
  run: ({ client, callOptions }, planId) => client.cancelPlan(planId, callOptions),
  render: (r) =>
    [
      `cancelled ${planLine(r)}`,
      r.left?.cancelled.length ? `  GTTs cancelled: ${r.left.cancelled.join(', ')}` : '',
      r.left?.position
        ? `  STILL OPEN: ${r.left.position.side === 'B' ? 'long' : 'short'} ${r.left.position.qty} ${r.exch}:${r.tsym}, no exit`
        : '',
      r.left?.note ? `  ${r.left.note}` : '',
    ]
      .filter(Boolean)
      .join('\n'),
});
