/** `GET /<EXCH>_symbols.txt.zip` (or `.txt`): the exchange's symbol master file (state/symbol-master.ts). */
import { masterText } from '../state/symbol-master.js';
import { type EmulatorReply, notOk } from './reply.js';
import { zipOne } from './zip.js';

/**
 * The master of the exchange `match` names (SYMBOL_MASTER_PATH), zipped when the path ends `.zip`: public as the
 * family's are (no session). Its instruments' tokens are known to quotes and security info from then on.
 */
export const symbolMasterReply = (method: string, match: RegExpExecArray, now: Date): EmulatorReply => {
  if (method !== 'GET') return notOk(`Invalid Input : method ${method} not allowed, use GET`, 405);
  const exch = match[1]!;
  const name = `${exch}_symbols.txt`;
  const text = masterText(exch, now);
  if (text === undefined) return { status: 404, body: 'Not Found', contentType: 'text/plain' };
  const zipped = match[2] !== undefined;
  const bytes = zipped ? zipOne(name, Buffer.from(text, 'utf8'), now) : Buffer.from(text, 'utf8');
  return {
    status: 200,
    body: `${zipped ? `${name}.zip` : name}: ${bytes.length} bytes`,
    bytes,
    contentType: zipped ? 'application/zip' : 'text/plain',
    logReply: { file: zipped ? `${name}.zip` : name, bytes: bytes.length },
  };
};
