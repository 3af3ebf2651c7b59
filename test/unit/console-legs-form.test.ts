/**
 * The console's new legs plan form (console/src/views/legs-plan-values.ts): its legs picked from a chain as
 * `GET /options` answers it become the body of POST /plans (checked by the gateway's own schema), each leg's symbol
 * the chain's at its strike and type; the straddle and strangle presets; a strike the chain does not list moved to
 * ATM; what the trader typed wrong reaches the gateway as typed; a refusal's field placed beside its leg; and a real
 * dry run's legs said one a line with their limits, beside the shared sentence of the net premium.
 */
import { expect, it } from 'vitest';

import { byPrefix } from '../../console/src/views/field-errors.js';
import {
  type Chain,
  dryRunLegLines,
  LEGS_FIELD_OF,
  LEGS_START,
  legsOnChain,
  legsPlanOf,
  presetLegs,
  strikeChoices,
} from '../../console/src/views/legs-plan-values.js';
import { optionLegsInput } from '../../functions/base/schemas/option-legs.js';
import { legsPlanSentence } from '../../functions/base/schemas/option-words.js';
import { legsDryRun } from '../../functions/plans/legs-create.js';

const strike = (n: number) => ({
  strike: n,
  CE: { tsym: `NIFTY08DEC26C${n}`, token: `c${n}` },
  PE: { tsym: `NIFTY08DEC26P${n}`, token: `p${n}` },
});
const CHAIN: Chain = {
  exch: 'NFO',
  expiry: '2026-12-08',
  expiries: ['2026-12-08', '2026-12-15'],
  atm: 25000,
  strikes: [24800, 24850, 24900, 24950, 25000, 25050, 25100, 25150, 25200].map(strike),
};
const onChain = { ...LEGS_START, legs: legsOnChain(LEGS_START.legs, CHAIN), stop: '40', target: '25' };

it("writes the start (a short straddle at ATM) as the body the gateway's schema takes", () => {
  const body = legsPlanOf(onChain, CHAIN);
  expect(body).toEqual({
    kind: 'option-legs',
    legs: [
      { exch: 'NFO', tsym: 'NIFTY08DEC26C25000', trantype: 'S', lots: 1 },
      { exch: 'NFO', tsym: 'NIFTY08DEC26P25000', trantype: 'S', lots: 1 },
    ],
    exit: { stop: '40', target: '25%' },
    prd: 'M',
  });
  expect(optionLegsInput.safeParse(body).success).toBe(true);
});

it('writes four legs of the strikes, types, sides and lots picked, the exit in points or %, the tag', () => {
  const body = legsPlanOf(
    {
      ...onChain,
      legs: [
        { strike: '25100', type: 'CE', side: 'B', lots: '2' },
        { strike: '25000', type: 'CE', side: 'S', lots: '2' },
        { strike: '24900', type: 'PE', side: 'S', lots: '2' },
        { strike: '24800', type: 'PE', side: 'B', lots: ' 2 ' },
      ],
      stop: '10',
      stopUnit: '%',
      target: '30',
      targetUnit: 'points',
      prd: 'C',
      tag: ' condor ',
    },
    { ...CHAIN, exch: 'BFO' },
  );
  expect(body).toEqual({
    kind: 'option-legs',
    legs: [
      { exch: 'BFO', tsym: 'NIFTY08DEC26C25100', trantype: 'B', lots: 2 },
      { exch: 'BFO', tsym: 'NIFTY08DEC26C25000', trantype: 'S', lots: 2 },
      { exch: 'BFO', tsym: 'NIFTY08DEC26P24900', trantype: 'S', lots: 2 },
      { exch: 'BFO', tsym: 'NIFTY08DEC26P24800', trantype: 'B', lots: 2 },
    ],
    exit: { stop: '10%', target: '30' },
    prd: 'C',
    tag: 'condor',
  });
  expect(optionLegsInput.safeParse(body).success).toBe(true);
});

it('presets a straddle at ATM and a strangle two listed strikes out, sold, of the lots given', () => {
  expect(presetLegs('straddle', CHAIN, '3')).toEqual([
    { strike: '25000', type: 'CE', side: 'S', lots: '3' },
    { strike: '25000', type: 'PE', side: 'S', lots: '3' },
  ]);
  expect(presetLegs('strangle', CHAIN, '1')).toEqual([
    { strike: '25100', type: 'CE', side: 'S', lots: '1' },
    { strike: '24900', type: 'PE', side: 'S', lots: '1' },
  ]);
  // Near the chain's end, the last listed strike.
  expect(presetLegs('strangle', { ...CHAIN, atm: 25200 }, '1')[0]!.strike).toBe('25200');
});

it("moves a strike the chain does not list to its ATM (the middle strike when the index's quote is unread)", () => {
  const legs = [
    { strike: '24950', type: 'CE' as const, side: 'B' as const, lots: '1' },
    { strike: '23000', type: 'PE' as const, side: 'S' as const, lots: '1' },
  ];
  expect(legsOnChain(legs, CHAIN).map((l) => l.strike)).toEqual(['24950', '25000']);
  const { atm: _unread, ...noQuote } = CHAIN;
  expect(legsOnChain(legs, noQuote).map((l) => l.strike)).toEqual(['24950', '25000']);
  expect(strikeChoices(CHAIN)).toContainEqual(['25000', '25,000 (ATM)']);
  expect(strikeChoices(CHAIN)).toContainEqual(['24950', '24,950']);
  expect(strikeChoices(undefined)).toEqual([]);
});

it('sends what the trader typed wrong as typed, and places each refusal beside its leg or field', () => {
  const bad = legsPlanOf({ ...onChain, legs: [onChain.legs[0]!, { ...onChain.legs[1]!, lots: 'two' }] }, CHAIN);
  expect(bad.legs[1]!.lots).toBe('two');
  const parsed = optionLegsInput.safeParse(bad);
  expect(parsed.success).toBe(false);
  const fieldOf = byPrefix(LEGS_FIELD_OF);
  expect(parsed.error?.issues.map((i) => fieldOf(i.path.join('.')))).toEqual(['leg1-lots']);
  expect(fieldOf('legs.0.tsym')).toBe('leg0-strike');
  expect(fieldOf('legs.3.trantype')).toBe('leg3-side');
  expect(fieldOf('exit.stop')).toBe('stop');
  expect(fieldOf('exit.target')).toBe('target');
  // No chain read yet: no symbol, and the gateway names the leg.
  expect(legsPlanOf(LEGS_START, undefined).legs[0]).toEqual({ exch: 'NFO', tsym: '', trantype: 'S', lots: 1 });
});

it("says a dry run's legs one a line with their limits, and the net premium in the shared words", async () => {
  const body = legsPlanOf(onChain, CHAIN);
  const answer = await legsDryRun(
    optionLegsInput.parse(body),
    {
      instrument: (_exch, tsym) =>
        Promise.resolve({ exch: 'NFO', tsym, token: '45001', lot: 65, tick: '0.05' } as never),
      lastPrice: (_exch, tsym) => Promise.resolve(/C\d+$/.test(tsym) ? 80.2 : 78.7),
      band: () => Promise.resolve(undefined),
      freeze: () => Promise.resolve(1800),
      protectionPercent: '5',
    },
    Date.now() + 10_000,
  );
  expect(dryRunLegLines(answer)).toEqual([
    'S 1 lot NFO:NIFTY08DEC26C25000: 65 at limit 76.20 (last 80.20)',
    'S 1 lot NFO:NIFTY08DEC26P25000: 65 at limit 74.80 (last 78.70)',
  ]);
  expect(legsPlanSentence(answer, body.exit)).toContain('net premium received ₹158.90 a unit');
  expect(dryRunLegLines({ dryRun: true })).toEqual([]);
});
