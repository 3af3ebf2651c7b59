/** `npm run events:schemas`: writes docs/events/<detail-type>.schema.json from the zod schemas of the events. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { allDetailJsonSchemas } from '../functions/base/schemas/event-json-schemas.js';

const dir = join(import.meta.dirname, '..', 'docs', 'events');
for (const { file, text } of allDetailJsonSchemas()) {
  writeFileSync(join(dir, file), text);
  console.log(`wrote docs/events/${file}`);
}
