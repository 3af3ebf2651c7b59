/** `npm run openapi [-- FILE]`: writes the OpenAPI document generated from the operation table (default openapi.json). */
import { writeFileSync } from 'node:fs';

import { buildOpenApiDocument } from '../functions/manifest/openapi.js';

const file = process.argv[2] ?? 'openapi.json';
writeFileSync(file, `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`);
console.log(`wrote ${file}`);
