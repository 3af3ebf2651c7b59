/**
 * The example workflow's execution input as a zod schema: `{"order": <a PlaceGTTOrder body>, "oco"?: <a
 * PlaceOCOOrder body>}`, the same shapes the functions validate. `npm run workflow` checks an input with it before
 * running anything, and docs/workflow/input.schema.json is its JSON Schema (`npm run workflow:schema` writes it; a
 * test fails when the file drifts).
 */
import * as z from 'zod';

import { placeOcoInput, placeOrderInput } from '../../functions/base/schemas/input.js';

export const workflowInputSchema = z.strictObject({
  /** The GTT order to place, as `POST /gtt-orders` takes it; its idempotency key is the execution name. */
  order: placeOrderInput,
  /** Optional protective two-leg OCO, as `POST /gtt-orders/oco` takes it; keyed `<execution name>-oco`. */
  oco: placeOcoInput.optional(),
});

export type WorkflowInput = z.input<typeof workflowInputSchema>;

export const WORKFLOW_INPUT_SCHEMA_FILE = 'docs/workflow/input.schema.json';

/** The JSON Schema (draft 2020-12) of the execution input, as the docs hold it. */
export const workflowInputJsonSchema = (): Record<string, unknown> => {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(workflowInputSchema, {
    io: 'input',
    unrepresentable: 'any',
    target: 'draft-2020-12',
  });
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'https://gtt-gateway.invalid/workflow/input.schema.json',
    title: 'gtt-gateway example workflow: execution input',
    description:
      'The input of a GttGatewayWorkflowExampleStack execution (and of npm run workflow): the GTT order to place, and optionally a protective OCO. The execution name is the idempotency key.',
    ...rest,
  };
};

export const workflowInputJsonSchemaText = (): string => `${JSON.stringify(workflowInputJsonSchema(), null, 2)}\n`;
