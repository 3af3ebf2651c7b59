/**
 * The console's day limits (console/src/views/risk-values.ts, used by risk-form.ts and today-risk.ts): the body the form sends (an amount as a
 * trader types it, `₹5,000` or `5,00,000`, read as rupees; what is not a number sent as typed, for the gateway to
 * name; an empty field left out) and how far a P&L is from each limit, or past it.
 */
import { describe, expect, it } from 'vitest';

import { askDetail, limitsSet, riskBodyOf, roomLeft } from '../../console/src/views/risk-values.js';

const form = { loss: '', target: '', mode: 'keep-exits', squareOff: false } as const;
const settings = {
  mode: 'keep-exits',
  squareOff: false,
  updatedAt: '2026-12-07T04:00:00Z',
  updatedBy: 'http',
} as const;

describe("the day's limits form's body", () => {
  it('reads rupees as typed the Indian way; leaves an empty field out', () => {
    expect(riskBodyOf({ ...form, loss: '₹5,000', target: ' 5,00,000 ' })).toEqual({
      dayLossLimit: 5000,
      dayProfitTarget: 500000,
      mode: 'keep-exits',
      squareOff: false,
    });
    expect(riskBodyOf({ ...form, mode: 'cancel-all', squareOff: true })).toEqual({
      mode: 'cancel-all',
      squareOff: true,
    });
  });

  it('sends a negative amount as a number and what is not a number as typed: the gateway judges both', () => {
    expect(riskBodyOf({ ...form, loss: '-5000' }).dayLossLimit).toBe(-5000);
    expect(riskBodyOf({ ...form, loss: 'five thousand' }).dayLossLimit).toBe('five thousand');
  });

  it('asks saying where trading stops, and warns when the last P&L is past the new limit already', () => {
    const body = { dayLossLimit: 400, mode: 'keep-exits', squareOff: true } as const;
    expect(askDetail(body, -120)).toBe(
      "Trading stops once the day's P&L is at or below -₹400: the kill switch goes on and cancels the entries, keeping the exits. Then each open position is closed by a protected limit order.",
    );
    expect(askDetail(body, -450)).toContain('The last P&L seen (-₹450) is past it already');
    expect(askDetail({ ...body, dayLossLimit: -5 }, -450)).not.toContain('past it');
  });

  it('counts settings without an amount as no limit', () => {
    expect(limitsSet(undefined)).toBe(false);
    expect(limitsSet(settings)).toBe(false);
    expect(limitsSet({ ...settings, dayProfitTarget: 100 })).toBe(true);
  });
});

describe('the room left to each limit', () => {
  it('says how far the P&L is from the loss limit and the target, in rupees', () => {
    expect(roomLeft(-120, { ...settings, dayLossLimit: 400, dayProfitTarget: 10000 })).toEqual([
      '₹280 above the loss limit (-₹400)',
      '₹10,120 short of the profit target (₹10,000)',
    ]);
  });

  it('says a limit is reached once the P&L is at or past it', () => {
    expect(roomLeft(-400, { ...settings, dayLossLimit: 400 })).toEqual(['at or past the loss limit (-₹400)']);
    expect(roomLeft(250, { ...settings, dayProfitTarget: 250 })).toEqual(['at or past the profit target (₹250)']);
  });
});
