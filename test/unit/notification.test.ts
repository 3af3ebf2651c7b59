/**
 * The message builder of the webhook (functions/events/notification.ts): one text per detail-type from real event
 * shapes (every fixture passes its zod schema), side, quantity, price, trigger or fired leg, tag, the fired order's
 * fate; the chat bodies; and the `notifyOn` filter's check.
 */
import { readFileSync } from 'node:fs';

import { describe, expect, it } from 'vitest';

import { classifyRejection } from '../../functions/base/broker/order-fate.js';
import {
  DETAIL_SCHEMAS,
  DETAIL_TYPES,
  type DetailType,
  type EventDetail,
} from '../../functions/base/schemas/events.js';
import {
  DEFAULT_NOTIFY_ON,
  notificationBody,
  notificationText,
  resolveNotifyOn,
} from '../../functions/events/notification.js';
import { SAMPLE_EVENT_COMMON, SAMPLE_FATE_DETAIL, SAMPLE_SINGLE_DETAIL } from '../support/sample-events.js';

const common = SAMPLE_EVENT_COMMON;
const single = SAMPLE_SINGLE_DETAIL;
const fate = SAMPLE_FATE_DETAIL;
const oco = {
  ...common,
  origin: 'watcher' as const,
  al_id: '24112300000002',
  type: 'oco' as const,
  exch: 'NSE',
  tsym: 'INFY-EQ',
  side: 'S',
  target: { trigger: '1700', side: 'S', quantity: 5, price: '1700', priceType: 'LMT', product: 'C' },
  stopLoss: {
    trigger: '1400',
    side: 'S',
    quantity: 5,
    price: '1395',
    priceType: 'SL-LMT',
    product: 'C',
    triggerPrice: '1400',
  },
};

/** Builds the text of an event whose detail must pass its schema (so a fixture cannot drift from what is published). */
const text = <T extends DetailType>(detailType: T, detail: EventDetail<T>): string => {
  DETAIL_SCHEMAS[detailType].parse(detail);
  return notificationText({ 'detail-type': detailType, detail });
};

describe('notificationText', () => {
  it.each([
    ['CH_PER_B_O', '-2', 'when % change below -2'],
    ['VOLUME_A_O', '250000', 'when volume above 250000'],
    ['TOI_A_O', '9000000', 'when total OI above 9000000'],
    ['LTP_A_52HIGH', '1650', 'when LTP above 1650'],
  ])('names what a %s alert watches', (alertType, trigger, words) => {
    expect(text('GTT Placed', { ...single, alertType, trigger })).toContain(words);
  });

  it('GTT Placed (single): side, quantity, symbol, price, trigger with its direction, al_id, tag, origin', () => {
    expect(text('GTT Placed', single)).toBe(
      'GTT Placed: Buy 1 NSE:M&M-EQ @ 1500 LMT when LTP below 1490\nal_id 24112300000001 · tag swing-1 · (gateway)',
    );
  });

  it('GTT Placed (OCO): both legs with their own side, quantity, price and trigger', () => {
    expect(text('GTT Placed', oco)).toBe(
      'GTT Placed: OCO NSE:INFY-EQ\ntarget: Sell 5 @ 1700 LMT at LTP 1700\nstop-loss: Sell 5 @ 1395 SL-LMT (trigger price 1400) at LTP 1400\nal_id 24112300000002 · (watcher)',
    );
  });

  it('Plan Step: a trailed stop from its old to its new trigger; a price unavailable says why, once', () => {
    const plan = {
      ...common,
      origin: 'watcher' as const,
      planId: 'pl1',
      kind: 'trailing-stop' as const,
      state: 'armed' as const,
      exch: 'NSE',
      tsym: 'WIPRO-EQ',
    };
    expect(text('Plan Step', { ...plan, step: 'stop-trailed', oldTrigger: '1400', newTrigger: '1420' })).toContain(
      '\nstop moved 1400 -> 1420\n',
    );
    const unavailable = text('Plan Step', {
      ...plan,
      step: 'price-unavailable',
      reason:
        'price unavailable: the broker has no quote for NSE:WIPRO-EQ yet (GetQuotes answered no data); the stop stays at 1400',
    });
    expect(unavailable).toContain(
      '\nprice unavailable: the broker has no quote for NSE:WIPRO-EQ yet (GetQuotes answered no data); the stop stays at 1400\n',
    );
    expect(unavailable).not.toContain('could not be read');
  });

  it('GTT Modified and a market order', () => {
    expect(
      text('GTT Modified', { ...single, priceType: 'MKT', price: '0', tag: undefined } as EventDetail<'GTT Modified'>),
    ).toMatch(/^GTT Modified: Buy 1 NSE:M&M-EQ at market when LTP below 1490\nal_id 24112300000001 · \(gateway\)$/);
  });

  it('GTT Cancelled: the fields the event has (only al_id when the watcher had not seen the order)', () => {
    expect(text('GTT Cancelled', { ...common, origin: 'gateway', al_id: '24112300000009' })).toBe(
      'GTT Cancelled\nal_id 24112300000009 · (gateway)',
    );
    expect(text('GTT Cancelled', { ...single, status: 'CANCELLED' })).toContain(
      'GTT Cancelled: Buy 1 NSE:M&M-EQ @ 1500 LMT when LTP below 1490\nstatus CANCELLED',
    );
  });

  it('GTT Triggered (single): the trigger it fired at, and the order it placed', () => {
    const fired = text('GTT Triggered', {
      ...single,
      origin: 'watcher',
      status: 'TRIGGERED',
      order: { norenordno: '24112300000123', status: 'filled', filledQty: 1, averagePrice: '1499.50' },
    });
    expect(fired).toBe(
      'GTT Triggered: Buy 1 NSE:M&M-EQ @ 1500 LMT fired at 1490\nstatus TRIGGERED, order 24112300000123 filled 1 @ 1499.50\nal_id 24112300000001 · tag swing-1 · (watcher)',
    );
    expect(fired).not.toContain('leg');
  });

  it('GTT Triggered (OCO): the fired leg, its trigger, side, quantity and price; no single trigger', () => {
    const fired = text('GTT Triggered', {
      ...oco,
      firedLeg: 'stopLoss',
      status: 'TRIGGERED',
      triggeredAt: '2026-11-23T04:45:00.000Z',
    });
    expect(fired).toBe(
      'GTT Triggered: stop-loss leg fired at LTP 1400: Sell 5 NSE:INFY-EQ @ 1395 SL-LMT (trigger price 1400)\nstatus TRIGGERED\nal_id 24112300000002 · (watcher)',
    );
    expect(text('GTT Triggered', { ...oco, firedLeg: 'target', status: 'TRIGGERED' })).toMatch(
      /^GTT Triggered: target leg fired at LTP 1700: Sell 5 NSE:INFY-EQ @ 1700 LMT\n/,
    );
  });

  it('GTT Removed: with and without a history status', () => {
    expect(text('GTT Removed', { ...single, origin: 'watcher', status: 'REJECTED' })).toMatch(
      /^GTT Removed: Buy 1 NSE:M&M-EQ .*\nstatus REJECTED\n/,
    );
    expect(text('GTT Removed', { ...single, origin: 'watcher' })).toContain('\nno longer pending at the broker\n');
  });

  it('Order Filled / Cancelled: side, quantity, fill and average price', () => {
    expect(
      text('Order Filled', {
        ...fate,
        order: { norenordno: '24112300000123', status: 'filled', filledQty: 10, averagePrice: '1500.00' },
      }),
    ).toBe(
      'Order Filled: Buy 10 NSE:M&M-EQ\norder 24112300000123 filled 10 @ 1500.00\nal_id 24112300000001 · tag swing-1 · (watcher)',
    );
    expect(
      text('Order Cancelled', {
        ...fate,
        firedLeg: 'target',
        order: { norenordno: '24112300000124', status: 'cancelled', filledQty: 4, averagePrice: '1501.00' },
      }),
    ).toBe(
      'Order Cancelled: Buy 10 NSE:M&M-EQ (target leg)\norder 24112300000124 cancelled, filled 4 of 10 @ 1501.00\nal_id 24112300000001 · tag swing-1 · (watcher)',
    );
  });

  it("Order Rejected: the rejection code, its hint and the broker's words", () => {
    const rejected = text('Order Rejected', {
      ...fate,
      order: {
        norenordno: '24112300000125',
        status: 'rejected',
        filledQty: 0,
        rejection: {
          code: 'MARKET_ORDER_REFUSED',
          hint: 'The broker refuses API market orders: use a limit price.',
          text: 'RED:ALGO_CHK failed',
        },
      },
    });
    expect(rejected).toBe(
      'Order Rejected: Buy 10 NSE:M&M-EQ\norder 24112300000125 rejected MARKET_ORDER_REFUSED: The broker refuses API market orders: use a limit price.\nbroker: RED:ALGO_CHK failed\nal_id 24112300000001 · tag swing-1 · (watcher)',
    );
  });

  it('Session Expired, Session Renewed, Kill Switch on and off', () => {
    expect(
      text('Session Expired', {
        ...common,
        origin: 'watcher',
        code: 'SESSION_EXPIRED',
        reason: 'Session Expired : Invalid Session Key',
      }),
    ).toBe(
      'Session Expired: SESSION_EXPIRED, Session Expired : Invalid Session Key\nlog in again: orders cannot be placed or watched until then\n(watcher)',
    );
    expect(text('Session Renewed', { ...common, origin: 'gateway', method: 'totp' })).toBe(
      'Session Renewed (totp, gateway)',
    );
    expect(
      text('Kill Switch', { ...common, origin: 'gateway', halted: true, changedBy: 'alice', cancelled: 3, failed: 1 }),
    ).toBe(
      'Kill Switch ON by alice: places and modifies refused\n3 pending order(s) cancelled, 1 still pending (cancel them by hand)',
    );
    expect(text('Kill Switch', { ...common, origin: 'gateway', halted: false })).toBe(
      'Kill Switch OFF: orders accepted again',
    );
  });

  it('an event that does not match its schema (or an unknown detail-type) still gets a line', () => {
    expect(
      notificationText({ 'detail-type': 'GTT Placed', detail: { al_id: '1', origin: 'gateway', extra: true } }),
    ).toBe('GTT Placed al_id 1 (gateway)');
    expect(notificationText({ 'detail-type': 'Something New', detail: null })).toBe('Something New');
  });
});

describe('notificationBody', () => {
  const event = { version: '0', 'detail-type': 'GTT Placed', detail: single };
  it('raw is the envelope itself; slack {text}; telegram {chat_id, text}', () => {
    expect(notificationBody('raw', event)).toBe(event);
    expect(notificationBody('slack', event)).toEqual({ text: notificationText(event) });
    expect(notificationBody('telegram', event, '-1001234')).toEqual({
      chat_id: '-1001234',
      text: notificationText(event),
    });
    expect(() => notificationBody('telegram', event)).toThrow(/chat id/);
  });
});

describe('resolveNotifyOn', () => {
  it('defaults to the firing and failure events', () => {
    expect(resolveNotifyOn(undefined)).toEqual([
      'GTT Triggered',
      'Order Filled',
      'Order Rejected',
      'Order Cancelled',
      'GTT Removed',
      'Session Expired',
      'Kill Switch',
      'Risk Limit Hit',
      'Plan Unprotected',
      'Signal Refused',
      'Position Unprotected',
    ]);
    expect(resolveNotifyOn('')).toEqual([...DEFAULT_NOTIFY_ON]);
  });

  it('the default is the list docs/reference/events.md gives', () => {
    const doc = readFileSync('docs/reference/events.md', 'utf8');
    const paragraph = /By default the webhook gets([\s\S]*?)`-c notifyOn=/.exec(doc)?.[1] ?? '';
    const named = [...paragraph.matchAll(/`([^`]+)`/g)].map((m) => m[1]);
    expect(named).toEqual([...DEFAULT_NOTIFY_ON]);
  });

  it('takes a comma-separated list (spaces trimmed, duplicates dropped) or all', () => {
    expect(resolveNotifyOn('GTT Triggered, Order Filled,GTT Triggered')).toEqual(['GTT Triggered', 'Order Filled']);
    expect(resolveNotifyOn('all')).toEqual([...DETAIL_TYPES]);
  });

  it('a name that is no detail-type fails with one line listing them', () => {
    let message = '';
    try {
      resolveNotifyOn('GTT Triggered,Order Filed', 'NOTIFY_ON');
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(
      /^NOTIFY_ON names no detail-type "Order Filed": use a comma-separated list of GTT Placed, .*Order Filled, Order Rejected, Order Cancelled, Plan Armed, Plan Step, Plan Done, Plan Failed, Plan Unprotected, Signal Received, Signal Acted, Signal Refused, Assistant Action, Position Unprotected \(or all\)$/,
    );
    expect(message).not.toContain('\n');
  });
});

describe('docs/reference/events.md', () => {
  it('every example message in "The message" is what the builder makes of a real event', () => {
    const doc = readFileSync('docs/reference/events.md', 'utf8');
    const section = doc.slice(doc.indexOf('### The message'), doc.indexOf('**Why a function'));
    const examples = [...section.matchAll(/```\n([\s\S]*?)\n```/g)].map((m) => m[1]);
    const built = [
      text('GTT Triggered', {
        ...single,
        origin: 'watcher',
        status: 'TRIGGERED',
        order: { norenordno: '24112300000123', status: 'filled', filledQty: 1, averagePrice: '1499.50' },
      }),
      text('GTT Triggered', { ...oco, firedLeg: 'stopLoss', status: 'TRIGGERED' }),
      text('Order Rejected', {
        ...fate,
        order: {
          norenordno: '24112300000125',
          status: 'rejected',
          filledQty: 0,
          rejection: classifyRejection('RED:ALGO_CHK failed'),
        },
      }),
      text('Session Expired', {
        ...common,
        origin: 'watcher',
        code: 'SESSION_EXPIRED',
        reason: 'Session Expired : Invalid Session Key',
      }),
      text('Kill Switch', { ...common, origin: 'gateway', halted: true, changedBy: 'alice', cancelled: 3, failed: 1 }),
    ];
    expect(examples).toEqual(built);
    const filled = text('Order Filled', {
      ...fate,
      order: { norenordno: '24112300000123', status: 'filled', filledQty: 10, averagePrice: '1500.00' },
    });
    // The Telegram recipe's example, on its how-to page.
    expect(readFileSync('docs/how-to/notifications.md', 'utf8')).toContain(
      JSON.stringify({ chat_id: '-1001234', text: filled })
        .replace('{"chat_id":', '{"chat_id": ')
        .replace(',"text":', ', "text": '),
    );
  });
});
