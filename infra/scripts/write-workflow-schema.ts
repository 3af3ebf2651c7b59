/** `npm run workflow:schema`: writes docs/workflow/input.schema.json from the workflow's zod input schema. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { WORKFLOW_INPUT_SCHEMA_FILE, workflowInputJsonSchemaText } from '../workflow/workflow-input.js';

writeFileSync(join(import.meta.dirname, '..', '..', WORKFLOW_INPUT_SCHEMA_FILE), workflowInputJsonSchemaText());
console.log(`wrote ${WORKFLOW_INPUT_SCHEMA_FILE}`);
