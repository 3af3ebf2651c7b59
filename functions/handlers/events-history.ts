// Lambda entry point: the events history (GET /events; functions/control-functions.ts).
import { createEventsHistory } from '../controls/events-history.js';

export const handler = createEventsHistory();
