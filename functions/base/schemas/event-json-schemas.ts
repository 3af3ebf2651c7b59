/**
 * The JSON Schema (draft 2020-12) of each detail-type's `detail`, generated from the zod schemas of events.ts:
 * what docs/events/*.schema.json hold (`npm run events:schemas` writes them; a test fails when they drift).
 */
import * as z from 'zod';

import { DETAIL_SCHEMAS, DETAIL_TYPES, type DetailType, EVENT_SOURCE } from './events.js';

export const schemaFileName = (type: DetailType): string => `${type.toLowerCase().replace(/ /g, '-')}.schema.json`;

export const detailJsonSchema = (type: DetailType): Record<string, unknown> => ({
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: `https://gtt-gateway.invalid/events/${schemaFileName(type)}`,
  title: `${type}: detail`,
  description: `The detail of an EventBridge event with source "${EVENT_SOURCE}" and detail-type "${type}".`,
  ...Object.fromEntries(
    Object.entries(z.toJSONSchema(DETAIL_SCHEMAS[type], { target: 'draft-2020-12' })).filter(([k]) => k !== '$schema'),
  ),
});

export const allDetailJsonSchemas = (): { file: string; text: string }[] =>
  DETAIL_TYPES.map((type) => ({
    file: schemaFileName(type),
    text: `${JSON.stringify(detailJsonSchema(type), null, 2)}\n`,
  }));
