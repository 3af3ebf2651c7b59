import { afterEach, describe, expect, it, vi } from 'vitest';

import { parseGatewayConfig } from '../../../functions/base/runtime/config.js';
import { OPERATIONS } from '../../../functions/manifest/index.js';
import { bindingsOf } from '../../../functions/orders/definitions.js';
import { attemptTimeout, deadlineOf, MIN_ATTEMPT_MS } from '../../../functions/orders/gateway/broker-deps.js';
import {
  buildCollaborators,
  type CollaboratorFactories,
  needsOf,
  stackNeedsOf,
} from '../../../functions/orders/gateway/collaborators.js';
import {
  cancelGttOrder,
  getGttOrder,
  getPendingGttOrders,
  getQuote,
  logout,
  placeGttOrder,
  placeOcoOrder,
} from '../../../functions/orders/operations.js';

const config = (settings: Record<string, string> = {}) =>
  parseGatewayConfig({
    BROKER_BASE_URL: 'http://127.0.0.1:9/NorenWClientTP',
    BROKER_SECRET_ID: 'gtt-gateway/broker-session',
    IDEMPOTENCY_KEY_REQUIRED: 'false',
    ...settings,
  });
const ALL_TABLES = {
  IDEMPOTENCY_TABLE_NAME: 'idem',
  CONTROL_TABLE_NAME: 'control',
  EVENTS_TABLE_NAME: 'events',
  INSTRUMENTS_TABLE_NAME: 'instruments',
  EVENT_BUS_NAME: 'bus',
};

/** Factories that say what they were asked to build (a stand-in for each collaborator, by name). */
const recording = () => {
  const built: string[] = [];
  const make = (name: string) => () => (built.push(name), { name }) as never;
  const factories: Required<CollaboratorFactories> = {
    journal: make('journal'),
    events: make('events'),
    controls: make('controls'),
    leases: make('leases'),
    copy: make('copy'),
    instruments: make('instruments'),
  };
  return { built, factories };
};

afterEach(() => vi.useRealTimers());

describe('needsOf: what an entry works with, decided once', () => {
  it('the handler files bind exactly what it names (and an OCO place its cancel too), for every entry', () => {
    for (const op of OPERATIONS) {
      const needs = stackNeedsOf(op);
      const named = Object.keys(needs).filter((k) => needs[k as keyof typeof needs]);
      expect(
        bindingsOf(op)
          .map((b) => b.option)
          .sort(),
        op.name,
      ).toEqual(named.sort());
    }
  });

  it('an OCO place takes no lease itself; its stack is given the leases its cancel takes', () => {
    expect(needsOf(placeOcoOrder).leases).toBe(false);
    expect(stackNeedsOf(placeOcoOrder)).toEqual({ ...needsOf(placeOcoOrder), leases: true });
    expect(stackNeedsOf(placeGttOrder)).toEqual(needsOf(placeGttOrder));
  });

  it('a quote reads the instruments copy (it reads its rules as an order does); a cancel takes a lease, no rules', () => {
    expect(needsOf(getQuote)).toMatchObject({ instruments: true, controls: false, journal: false });
    expect(needsOf(cancelGttOrder)).toMatchObject({ leases: true, controls: true, instruments: false });
    expect(needsOf(getGttOrder)).toMatchObject({ copy: true, leases: false });
    expect(needsOf(logout)).toMatchObject({ controls: true, leases: false });
  });
});

describe('buildCollaborators', () => {
  it('builds what the entry needs and the deployment has a table for, nothing else', () => {
    const { built, factories } = recording();
    const parts = buildCollaborators(getQuote, config(ALL_TABLES), factories);
    expect(built).toEqual(['instruments']);
    expect(parts.instruments).toEqual({ name: 'instruments' });
    expect(parts.journal).toBeUndefined();

    const place = recording();
    buildCollaborators(placeGttOrder, config(ALL_TABLES), place.factories);
    expect(place.built.sort()).toEqual(['controls', 'events', 'instruments', 'journal']);

    const read = recording();
    buildCollaborators(getPendingGttOrders, config(ALL_TABLES), read.factories);
    expect(read.built).toEqual([]);
  });

  it('a needed collaborator without its table is absent; an order write built without its controls is refused', () => {
    const { built, factories } = recording();
    const parts = buildCollaborators(placeGttOrder, config(), factories);
    expect(built).toEqual([]);
    expect(parts.controls).toBeUndefined();
    const { controls: _controls, ...withoutControls } = factories;
    expect(() => buildCollaborators(placeGttOrder, config(ALL_TABLES), withoutControls)).toThrow(
      expect.objectContaining({ code: 'CONFIGURATION_ERROR', message: expect.stringContaining('trading controls') }),
    );
  });
});

describe('attemptTimeout: one broker attempt, written once', () => {
  it('the deployment timeout, else a second before the deadline, else the write bound; never under the minimum', () => {
    vi.useFakeTimers({ now: 1_000_000 });
    expect(attemptTimeout(5_000, 1_000_000 + 60_000)()).toBe(5_000);
    expect(attemptTimeout(5_000, 1_000_000 + 3_000)()).toBe(2_000);
    expect(attemptTimeout(5_000, 1_000_000 + 60_000, 1_000_000 + 1_500)()).toBe(1_500);
    expect(attemptTimeout(5_000, 1_000_000 + 500)()).toBe(MIN_ATTEMPT_MS);
    // Read when the attempt starts: later, less is left.
    const timeout = attemptTimeout(5_000, 1_000_000 + 4_000);
    vi.advanceTimersByTime(2_000);
    expect(timeout()).toBe(1_000);
  });

  it('the deadline of a Lambda context, or of a caller without one (Lambda’s longest invocation)', () => {
    vi.useFakeTimers({ now: 2_000_000 });
    expect(deadlineOf({ getRemainingTimeInMillis: () => 7_000 })).toBe(2_007_000);
    expect(deadlineOf(undefined)).toBe(2_000_000 + 15 * 60_000);
  });
});
