// Lambda entry point: plans (POST/GET /plans, GET/DELETE /plans/{planId}; functions/control-functions.ts).
import { createPlansFunction } from '../plans/function.js';

export const handler = createPlansFunction();
