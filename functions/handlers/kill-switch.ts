// Lambda entry point: the kill switch (POST, DELETE, GET /kill-switch; functions/control-functions.ts).
import { createKillSwitch } from '../controls/kill-switch.js';

export const handler = createKillSwitch();
