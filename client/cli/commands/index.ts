/**
 * The table of commands, in the order the usage lists them. A command is one entry of its area's file: adding one
 * here is all it takes for the parser, the checks, the usage and the hint to know it.
 */
import type { Command } from '../command.js';
import { assistant, assistantCreate, assistantDelete, assistantRotate, assistants } from './assistants.js';
import { chain } from './chain.js';
import { close } from './close.js';
import { consoleUser, consoleUsers } from './console-users.js';
import { events, killSwitch } from './controls.js';
import { coverage, coverageSet } from './coverage.js';
import { call, operations } from './operations.js';
import { cancel, get, list, modify, modifyOco, orders, place, placeOco, triggered } from './orders.js';
import { planLegs } from './plan-legs-create.js';
import { planOption } from './plan-option.js';
import { plan, planCancel, planCreate, plans } from './plans.js';
import { positions } from './positions.js';
import { quote } from './quotes.js';
import { risk, riskSet } from './risk.js';
import { ltp } from './sandbox.js';
import { series } from './series.js';
import { clientRecord, enabled, login, logout, session } from './session.js';
import { signal, signals } from './signals.js';
import {
  signalTest,
  strategies,
  strategy,
  strategyCreate,
  strategyDelete,
  strategyEdit,
  strategyRotate,
} from './strategies.js';

export const COMMANDS: readonly Command[] = [
  place,
  placeOco,
  list,
  get,
  modify,
  modifyOco,
  cancel,
  triggered,
  orders,
  positions,
  close,
  quote,
  chain,
  series,
  events,
  enabled,
  clientRecord,
  logout,
  login,
  session,
  killSwitch,
  risk,
  riskSet,
  coverage,
  coverageSet,
  planCreate,
  planOption,
  planLegs,
  plans,
  plan,
  planCancel,
  strategyCreate,
  strategies,
  strategy,
  strategyEdit,
  strategyDelete,
  strategyRotate,
  signalTest,
  signals,
  signal,
  assistantCreate,
  assistants,
  assistant,
  assistantRotate,
  assistantDelete,
  consoleUser,
  consoleUsers,
  operations,
  call,
  ltp,
];

export const commandNamed = (name: string): Command | undefined => COMMANDS.find((c) => c.name === name);
