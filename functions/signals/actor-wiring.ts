/**
 * The part that acts on a signal, wired to one deployment (the SignalActor the signal worker calls; signal-actor.ts): the
 * operation table's place, OCO, pending-list and cancel entries in-process on the shared stack (guardrails, exchange
 * rules, the order-rate governor and kill switch, idempotency, audit, events: orders/gateway/in-process.ts), SearchScrip for
 * the symbols, the plan engine for brackets and trailing stops, and the kill switch. What it does: act-on-signal.ts.
 */
import type { Logger } from '@aws-lambda-powertools/logger';

import type { GatewaySettings } from '../base/runtime/config.js';
import { memo } from '../base/schemas/values.js';
import { createKillSwitchControl } from '../controls/kill-switch.js';
import { inProcessGateway } from '../orders/gateway/in-process.js';
import { cancelGttOrder, getPendingGttOrders, placeGttOrder, placeOcoOrder } from '../orders/operations.js';
import { getPositions } from '../orders/positions-operation.js';
import { createPlanEngine } from '../plans/engine-wiring.js';
import { actOn, type SignalDeps } from './act-on-signal.js';
import type { SignalActor } from './signal-actor.js';
import { resolveInstrument } from './symbols.js';

export { SignalRetryError } from './act-on-signal.js';

export const createSignalActor = (settings: GatewaySettings, logger: Logger): SignalActor => {
  const deps = memo((): SignalDeps => {
    const gateway = inProcessGateway(settings, logger, 'Signals');
    // Built on first use: a deployment without the plans' tables still places GTTs and OCOs.
    const plans = memo(() => createPlanEngine(settings, logger));
    const killSwitch = memo(() => createKillSwitchControl({ config: settings, logger }));
    return {
      place: gateway.direct(placeGttOrder),
      placeOco: gateway.direct(placeOcoOrder),
      pending: gateway.direct(getPendingGttOrders),
      positions: gateway.direct(getPositions),
      plans: async () => {
        const all: Record<string, unknown>[] = [];
        let cursor: string | undefined;
        do {
          const page = await plans().list(1_000, cursor);
          all.push(...page.plans);
          cursor = page.nextCursor;
        } while (cursor);
        return all;
      },
      cancel: gateway.direct(cancelGttOrder),
      instrument: (alert, order, deadline) => resolveInstrument(alert, order, gateway.reads(deadline)),
      createPlan: (input, key, deadline) => plans().create(input, key, deadline),
      killSwitchOn: (changedBy, deadline) => killSwitch().on(changedBy, deadline),
    };
  });
  return (signal, strategy, deadline) => actOn(deps(), signal, strategy, deadline);
};
