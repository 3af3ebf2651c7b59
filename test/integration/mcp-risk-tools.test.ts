/**
 * The day's limits and coverage as assistants meet them over the real remote server (`POST /mcp` on the local stack,
 * the broker emulator behind it): `risk_limits` and `coverage` answer the gateway's reply with a summary in words
 * (rupees the Indian way); `set_risk_limits` and `set_coverage` preview what will change (the settings read now, "was
 * …") and send nothing, `confirm` writes once (a second confirm replays it); a bad body is refused with the gateway's
 * own reason before anything is read or sent; an exit-only assistant is refused (the settings are the trader's: a
 * loosened limit raises risk), and a read-only one is not offered the writes.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { LocalStack } from '../../local/run-local.js';
import type { EmulatorControl } from '../support/emulator-control.js';
import { useLocalStack } from '../support/local-stack-fixture.js';
import { callTool, remoteMcpClient } from '../support/mcp-tools.js';

let stack: LocalStack;
let control: EmulatorControl;
useLocalStack({}, (s, c) => {
  stack = s;
  control = c;
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- replies read field by field
type Json = Record<string, any>;
let keys = 0;
const api = async (method: string, path: string, body?: unknown) => {
  const res = await fetch(`${stack.api.url}${path}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(method === 'POST' ? { 'Idempotency-Key': `mcp-risk-${++keys}-${Date.now()}` } : {}),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as Json };
};
const textOf = (result: { content?: unknown }) => JSON.stringify(result.content);
const brokerWrites = async () =>
  (await control.requests()).filter((r) => /^(Place|Modify|Cancel)/.test(r.operation ?? '')).length;

const clients: Client[] = [];
const assistant = async (name: string, scopes: string[]) => {
  const created = await api('POST', '/assistants', { name, scopes });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const client = await remoteMcpClient(stack.api.url, created.body.token as string);
  clients.push(client);
  return client;
};

let trader: Client;
let exit: Client;
let reader: Client;
beforeAll(async () => {
  trader = await assistant('risk-trader', ['read', 'trade']);
  exit = await assistant('risk-exit', ['read', 'exit']);
  reader = await assistant('risk-reader', ['read']);
});
afterAll(async () => {
  for (const client of clients) await client.close();
});

describe("the day's limits", () => {
  it('risk_limits reads them with a summary; set_risk_limits previews the change in words and sends nothing', async () => {
    const none = (await callTool(trader, 'risk_limits')).structuredContent!;
    expect(none.settings).toBeUndefined();
    expect(none.summary).toBe(`No day limits are set. Today (${(none.today as Json).day as string}): clear.`);

    const before = await brokerWrites();
    const preview = await callTool(trader, 'set_risk_limits', { dayLossLimit: 5000, squareOff: false });
    expect(preview.isError, textOf(preview)).toBeFalsy();
    const p = preview.structuredContent!;
    expect(p.summary).toBe(
      'Day loss limit ₹5,000 (was none), profit target none; when crossed: kill switch keep-exits, square-off off.',
    );
    expect(p.request).toEqual({ operation: 'SetRiskLimits', body: { dayLossLimit: 5000, squareOff: false } });
    expect(p.rulesChecked).toContain('current settings read now (GetRiskLimits)');
    expect((await api('GET', '/risk')).body.settings).toBeUndefined();

    const done = (await callTool(trader, 'confirm', { confirmationId: p.confirmationId })).structuredContent!;
    expect(done, JSON.stringify(done)).toMatchObject({ confirmed: true, operation: 'SetRiskLimits', replayed: false });
    const set = (await api('GET', '/risk')).body.settings as Json;
    expect(set).toMatchObject({ dayLossLimit: 5000, mode: 'keep-exits', squareOff: false });
    const again = (await callTool(trader, 'confirm', { confirmationId: p.confirmationId })).structuredContent!;
    expect(again).toMatchObject({ confirmed: true, replayed: true });
    expect((await api('GET', '/risk')).body.settings).toEqual(set);
    expect(await brokerWrites()).toBe(before);

    const read = (await callTool(trader, 'risk_limits')).structuredContent!;
    expect(read.summary).toMatch(
      /^Day loss limit ₹5,000, profit target none; when crossed: kill switch keep-exits, square-off off\. Today \(\d{4}-\d\d-\d\d\): clear\.$/,
    );

    const raise = (
      await callTool(trader, 'set_risk_limits', { dayLossLimit: 100000, dayProfitTarget: 12500.5, mode: 'cancel-all' })
    ).structuredContent!;
    expect(raise.summary).toBe(
      'Day loss limit ₹1,00,000 (was ₹5,000), profit target ₹12,500.5 (was none); when crossed: kill switch cancel-all (was keep-exits), square-off off.',
    );
    const off = (await callTool(trader, 'set_risk_limits', { off: true })).structuredContent!;
    expect(off.summary).toBe(
      "Turn the day's limits off: loss limit none (was ₹5,000), profit target none; no limit stops trading today.",
    );
    expect(off.request).toEqual({ operation: 'SetRiskLimits', body: {} });
    expect((await api('GET', '/risk')).body.settings).toEqual(set);
  });

  it('a bad body is refused with the reason before anything is read or sent', async () => {
    const settings = (await api('GET', '/risk')).body.settings as Json | undefined;
    const refusals: [Json, string][] = [
      [{ dayLossLimit: -5000 }, 'a limit of ₹5,000 is written 5000, never -5000 or 0'],
      [{ dayLossLimit: 1000.123 }, 'dayLossLimit must be rupees to the paisa (at most 2 decimals)'],
      [{ dayLossLimit: 5000, off: true }, 'off turns the limits off: give it alone'],
      [{ mode: 'cancel-all' }, 'give dayLossLimit, dayProfitTarget or both'],
      [{ dayLossLimit: 5000, mode: 'halt' }, 'mode'],
    ];
    for (const [args, reason] of refusals) {
      const result = await callTool(trader, 'set_risk_limits', args);
      expect(result.isError, JSON.stringify(args)).toBe(true);
      expect(textOf(result)).toContain(reason);
    }
    expect((await api('GET', '/risk')).body.settings).toEqual(settings);
  });

  it('an exit-only assistant may read them but never set them, tighter or not; a read-only one is not offered it', async () => {
    const settings = (await api('GET', '/risk')).body.settings as Json | undefined;
    expect((await callTool(exit, 'risk_limits')).structuredContent!.summary).toContain('Day loss limit ₹5,000');
    const tighter = (await callTool(exit, 'set_risk_limits', { dayLossLimit: 1000 })).structuredContent!;
    expect(tighter).toMatchObject({
      refused: true,
      reason:
        "EXIT_ONLY: SetRiskLimits is not an exit-only write (an exit-only assistant cancels, changes triggers and prices, and places orders that reduce an open position): the day's limits are the trader's (or a trade assistant's): loosening one raises risk; nothing was sent.",
    });
    expect(tighter.confirmationId).toBeUndefined();
    const names = (await reader.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['risk_limits', 'coverage']));
    expect(names).not.toContain('set_risk_limits');
    const refused = await callTool(reader, 'set_risk_limits', { dayLossLimit: 1000 });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain('set_risk_limits not found');
    expect((await api('GET', '/risk')).body.settings).toEqual(settings);
  });
});

describe('coverage', () => {
  it('coverage reads positions and settings with a summary; set_coverage previews, confirms once, places nothing itself', async () => {
    const empty = (await callTool(trader, 'coverage')).structuredContent!;
    expect(empty.summary).toBe('No open positions. Watch off; autoCover off.');

    const before = await brokerWrites();
    const preview = (await callTool(trader, 'set_coverage', { watch: true, autoCover: { target: '2%', stop: 10 } }))
      .structuredContent!;
    expect(preview.summary).toBe(
      'Coverage watch on (was off): each watcher run checks every open position and raises Position Unprotected once for an uncovered one; autoCover an OCO at target 2% of the average price, stop 10 points (was off).',
    );
    expect((await api('GET', '/positions/coverage')).body.settings).toEqual({ watch: false });
    const done = (await callTool(trader, 'confirm', { confirmationId: preview.confirmationId })).structuredContent!;
    expect(done, JSON.stringify(done)).toMatchObject({ confirmed: true, operation: 'PutCoverageSettings' });
    const set = (await api('GET', '/positions/coverage')).body.settings as Json;
    expect(set).toMatchObject({ watch: true, autoCover: { target: '2%', stop: '10' } });
    const again = (await callTool(trader, 'confirm', { confirmationId: preview.confirmationId })).structuredContent!;
    expect(again).toMatchObject({ confirmed: true, replayed: true });
    expect((await api('GET', '/positions/coverage')).body.settings).toEqual(set);
    expect(await brokerWrites()).toBe(before);
    expect((await callTool(trader, 'coverage')).structuredContent!.summary).toBe(
      'No open positions. Watch on; autoCover an OCO at target 2% of the average price, stop 10 points.',
    );
  });

  it('a bad distance is refused with the reason; an exit-only assistant may not turn coverage off', async () => {
    const settings = (await api('GET', '/positions/coverage')).body.settings as Json;
    for (const [args, reason] of [
      [{ watch: true, autoCover: { target: '2%', stop: '150%' } }, 'autoCover.stop must be points above 0'],
      [{ watch: true, autoCover: { target: 0, stop: 5 } }, 'autoCover.target must be points above 0'],
      [{ watch: true, autoCover: { target: 'two', stop: 5 } }, 'a distance is points (5) or a percentage'],
      [{ autoCover: { target: 5, stop: 5 } }, 'watch'],
    ] as [Json, string][]) {
      const result = await callTool(trader, 'set_coverage', args);
      expect(result.isError, JSON.stringify(args)).toBe(true);
      expect(textOf(result)).toContain(reason);
    }
    const off = (await callTool(exit, 'set_coverage', { watch: false })).structuredContent!;
    expect(off.refused).toBe(true);
    expect(off.reason).toMatch(/^EXIT_ONLY: PutCoverageSettings is not an exit-only write .*coverage is the trader's/);
    expect((await api('GET', '/positions/coverage')).body.settings).toEqual(settings);
  });
});
