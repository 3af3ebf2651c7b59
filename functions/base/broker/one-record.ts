/**
 * The one-order read (GetGTTOrder, and the reads a modify and a PATCH make before sending): the broker has no read
 * by id, so the whole pending list is read, but only the records with the wanted al_id are read in their dialect,
 * checked and normalised. Every other record is parsed for its al_id alone (`rawIdOf`, as a page is:
 * page-records.ts) and dropped. The operation's `toResult` then gets the wanted records in list order, and answers
 * exactly what it answers from the whole list decoded (the first record with that al_id, or ORDER_NOT_FOUND).
 *
 * What is checked: the wanted records (a bad one is BROKER_BAD_REPLY, as today), and a record without a usable
 * al_id (it could be anyone's: BROKER_BAD_REPLY, as a page does). A malformed record of another order is not read
 * in its dialect, so it no longer fails the read of this one.
 */
import type { AnyOperation } from '../contract/operation.js';
import { rawIdOf } from './page-records.js';
import type { ListDecoder } from './reply.js';
import { badShape, checkRecord } from './reply.js';

type Issue = { path: string; message: string };
type Schema = Parameters<typeof checkRecord>[0];

/** A list decoder that decodes only the records whose al_id is `alId` (and the first without a usable one). */
export const oneRecordDecoder = (
  operation: AnyOperation,
  schema: Schema,
  input: unknown,
  alId: string,
): ListDecoder => {
  const wanted: { record: unknown; index: number }[] = [];
  let unplaced: { record: unknown; index: number } | undefined;
  return {
    records: [],
    issues: [],
    textless: true,
    onRecord: (record, index) => {
      const id = rawIdOf(record);
      if (id === alId) wanted.push({ record, index });
      else if (id === undefined) unplaced ??= { record, index };
    },
    finish: () => {
      const issues: Issue[] = [];
      const records: unknown[] = [];
      // In list order, as the whole list's decoding checks them: the first failing record's issues are the reply's.
      const toCheck = unplaced ? [...wanted, unplaced].sort((a, b) => a.index - b.index) : wanted;
      for (const { record, index } of toCheck) {
        const checked = checkRecord(schema, record, index, issues);
        if (checked.ok) records.push(checked.data);
      }
      if (unplaced && !issues.length) issues.push({ path: `${unplaced.index}.al_id`, message: 'no al_id' });
      if (issues.length) throw badShape(operation, 200, issues);
      return operation.toResult(records, input);
    },
  };
};
