/**
 * The OCO contract tests' jData helpers: a long position's two-leg exit in the broker's wire form, a single GTT, and
 * the calls (place, pending, triggered, set the LTP) against the emulator the test's fixture started.
 */
import { control as rawControl, jdata } from '../contract/jdata-client.js';
import { type EmulatorFixture, gttJData } from './emulator-fixture.js';
import { wireOcoLeg } from './wire-order.js';

export const EXCHANGES = ['CDS', 'NSE', 'NFO', 'MCX', 'BSE', 'NCX', 'BSTAR', 'BCD', 'BFO', 'NCOM'];
export const AL_ID = /^\d{14}$/;

export type Fields = Record<string, unknown>;

/** The helpers, bound to the fixture `current()` returns at call time (set in the test file's beforeEach). */
export const ocoClient = (current: () => EmulatorFixture) => {
  const leg = (over: Fields = {}): Fields =>
    wireOcoLeg(current(), { tsym: 'RELIANCE-EQ', qty: '10', prc: '2600', ...over });
  /** A long position's exit: x = target 2600 (leg 1), y = stop-loss 2400 (leg 2). */
  const oco = (over: Fields = {}, leg1: Fields = {}, leg2: Fields = {}): Fields => ({
    uid: current().uid,
    ai_t: 'LMT_BOS_O',
    validity: 'GTT',
    tsym: 'RELIANCE-EQ',
    exch: 'NSE',
    oivariable: [
      { d: '2600', var_name: 'x' },
      { d: '2400', var_name: 'y' },
    ],
    place_order_params: leg(leg1),
    place_order_params_leg2: leg({ prctyp: 'SL-LMT', prc: '2395', trgprc: '2400', ...leg2 }),
    ...over,
  });
  const single = (over: Fields = {}): Fields => gttJData(current(), over);

  const call = (op: string, fields: unknown, token: string | null = current().token) =>
    jdata(current().url, op, fields, token);
  const placeOco = async (over: Fields = {}, leg1: Fields = {}, leg2: Fields = {}) =>
    (await call('PlaceOCOOrder', oco(over, leg1, leg2))).body as { stat: string; al_id: string };
  const pending = async () => (await call('GetPendingGTTOrder', { uid: current().uid })).body;
  const triggered = async () => (await call('GetTrgOi', { actid: current().actid })).body;
  const ltp = async (price: number, tsym = 'RELIANCE-EQ', exch = 'NSE') =>
    (await rawControl(current().url, 'POST', 'ltp', { exch, tsym, ltp: price })).body as {
      triggered: string[];
      fired: { al_id: string; leg: string }[];
    };
  return { leg, oco, single, call, placeOco, pending, triggered, ltp };
};
