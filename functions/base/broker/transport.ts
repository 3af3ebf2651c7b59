/**
 * One POST to the broker over node:http(s) with a keep-alive agent that warm invocations reuse.
 * No retries here: whether a call may be repeated is the operation's decision, not the transport's.
 *
 * A list's reply (the caller passes `onRecord`) that is a JSON array is read record by record as it arrives
 * (json-records.ts): its text is never held whole, so its size is bounded by records (MAX_LIST_RECORDS), not by
 * bytes. Any other reply (an object such as `Not_Ok`, an error page) is read as text, up to MAX_REPLY_BYTES.
 */
import http from 'node:http';
import https from 'node:https';

import type { BrokerRequest } from './jdata.js';
import { JsonArraySplitter, NotAJsonArray, RecordTooLarge } from './json-records.js';

export interface BrokerHttpReply {
  status: number;
  contentType: string;
  /** The body; for a list read record by record, only its first bytes (what an error quotes). */
  text: string;
  /** A JSON array handed to `onRecord` element by element: how many elements it had. */
  records?: number;
  /** The body began as a JSON array but is not a well-formed one (`text` holds its first bytes). */
  notJson?: true;
}

/**
 * Takes each element of a list's JSON array reply, parsed, in order, with its text (it must not throw). A sink that
 * asked for bytes only (`unparsed`) gets `undefined` and '' and the element's bytes, valid during the call.
 */
export type RecordSink = (record: unknown, index: number, text: string, bytes?: Buffer) => void;

export type TransportFailureKind = 'timeout' | 'refused' | 'connection_lost' | 'reply_too_large';

/** A request that got no complete HTTP reply. `requestMayHaveArrived` is false only when nothing can have reached the broker. */
export class TransportFailure extends Error {
  override readonly name = 'TransportFailure';
  constructor(
    readonly kind: TransportFailureKind,
    readonly requestMayHaveArrived: boolean,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** A reply read as text (no record sink, or not an array). */
export const MAX_REPLY_BYTES = 8 * 1024 * 1024;
/** One record of a list (a GTT record is about 600 bytes, an OCO's about 1 KB). */
export const MAX_RECORD_BYTES = 64 * 1024;
/**
 * Records of one list. Not the wire's limit but the function's memory: each record is held once decoded (about 2 KB
 * of heap with its normalised copy), so 100,000 records is about 200 MB of the 512 MB a read function has. Far above
 * any account seen (an 8 MB text held 15,500 records; the family's brokers state no count limit).
 */
export const MAX_LIST_RECORDS = 100_000;
/**
 * A list reply up to this size, for a sink that does not read the records' texts, is parsed whole (about 300
 * records): one native parse instead of the scan, with at most this much held. Below 2 * MAX_LIST_RECORDS bytes, so
 * no list parsed whole can pass the record count (`[0,0,...]` is two bytes an element).
 */
export const WHOLE_LIST_BYTES = 192 * 1024;
/** What an error quotes of a reply read record by record. */
const HEAD_BYTES = 200;

// Kept at module scope so connections survive across warm invocations of the same container.
const agents = {
  'http:': new http.Agent({ keepAlive: true, keepAliveMsecs: 1_000, maxSockets: 16, scheduling: 'lifo' }),
  'https:': new https.Agent({ keepAlive: true, keepAliveMsecs: 1_000, maxSockets: 16, scheduling: 'lifo' }),
};

export const postToBroker = (
  request: BrokerRequest,
  timeoutMs: number,
  onRecord?: RecordSink,
  /** The sink does not read the records' texts: a small list may be parsed whole (json-records.ts). */
  textless?: boolean,
  /** The sink takes the records' bytes only and decodes those it needs (json-records.ts). */
  unparsed?: boolean,
): Promise<BrokerHttpReply> =>
  new Promise((resolve, reject) => {
    const url = new URL(request.url);
    const transport = url.protocol === 'https:' ? https : http;
    const agent = url.protocol === 'https:' ? agents['https:'] : agents['http:'];
    const body = Buffer.from(request.body, 'utf8');
    let settled = false;
    let connected = false;
    const fail = (failure: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      reject(failure);
    };

    const req = transport.request(url, {
      method: 'POST',
      agent,
      headers: { ...request.headers, 'Content-Length': String(body.length) },
    });
    const timer = setTimeout(() => {
      fail(new TransportFailure('timeout', connected, `No reply from the broker within ${timeoutMs} ms`));
    }, timeoutMs);

    req.on('socket', (socket) => {
      // A reused keep-alive socket is already connected.
      if (!socket.connecting) connected = true;
      else socket.once('connect', () => (connected = true));
    });
    req.on('error', (error: NodeJS.ErrnoException) => {
      const refused = error.code === 'ECONNREFUSED' || error.code === 'ENOTFOUND' || error.code === 'EAI_AGAIN';
      fail(
        new TransportFailure(
          refused ? 'refused' : 'connection_lost',
          !refused && connected,
          refused
            ? `Could not connect to the broker (${error.code})`
            : `Connection to the broker lost (${error.code ?? error.message})`,
          { cause: error },
        ),
      );
    });
    req.on('response', (res) => {
      const reader = replyReader(onRecord, textless === true, unparsed === true);
      res.on('data', (chunk: Buffer) => {
        if (settled) return;
        const problem = reader.write(chunk);
        if (problem) fail(problem);
      });
      res.on('error', (error) =>
        fail(new TransportFailure('connection_lost', true, 'Broker reply was cut off', { cause: error })),
      );
      res.on('end', () => {
        if (settled) return;
        if (!res.complete) {
          fail(new TransportFailure('connection_lost', true, 'Broker reply was cut off'));
          return;
        }
        settled = true;
        clearTimeout(timer);
        resolve({
          status: res.statusCode ?? 0,
          contentType: String(res.headers['content-type'] ?? ''),
          ...reader.end(),
        });
      });
    });
    req.end(body);
  });

/**
 * Reads a reply's body: as text, or (a record sink given and the body an array) record by record. A body that looked
 * like an array but is not a well-formed one comes out as its first bytes, which the decoder then finds not JSON.
 */
const replyReader = (onRecord: RecordSink | undefined, textless: boolean, unparsed: boolean) => {
  const chunks: Buffer[] = [];
  let size = 0;
  let mode: 'undecided' | 'text' | 'records' | 'malformed' = onRecord ? 'undecided' : 'text';
  let head = Buffer.alloc(0);
  let count = 0;
  const splitter = onRecord
    ? new JsonArraySplitter(
        (record, index, text, bytes) => {
          count = index + 1;
          onRecord(record, index, text, bytes);
        },
        MAX_RECORD_BYTES,
        textless && !unparsed ? WHOLE_LIST_BYTES : 0,
        !unparsed,
      )
    : undefined;
  const tooLarge = (message: string) => new TransportFailure('reply_too_large', true, message);

  const write = (chunk: Buffer): Error | undefined => {
    size += chunk.length;
    if (head.length < HEAD_BYTES) head = Buffer.concat([head, chunk.subarray(0, HEAD_BYTES - head.length)]);
    if (mode === 'undecided') {
      const first = chunk.find((byte) => byte !== 0x20 && byte !== 0x0a && byte !== 0x0d && byte !== 0x09);
      if (first !== undefined) mode = first === 0x5b ? 'records' : 'text';
    }
    if (mode === 'malformed') return undefined;
    if (mode === 'records') {
      try {
        splitter!.write(chunk);
      } catch (error) {
        if (error instanceof RecordTooLarge) return tooLarge(`Broker reply has ${error.message}`);
        if (error instanceof NotAJsonArray) mode = 'malformed';
        // The sink's own failure (it should not throw): the call fails with it, nothing is left unhandled.
        else return error instanceof Error ? error : new Error(String(error));
      }
      if (count > MAX_LIST_RECORDS) return tooLarge(`Broker list longer than ${MAX_LIST_RECORDS} records`);
      return undefined;
    }
    if (size > MAX_REPLY_BYTES) return tooLarge(`Broker reply larger than ${MAX_REPLY_BYTES} bytes`);
    chunks.push(chunk);
    return undefined;
  };

  const end = (): Pick<BrokerHttpReply, 'text' | 'records' | 'notJson'> => {
    if (mode === 'records') {
      try {
        splitter!.end();
        return { text: head.toString('utf8'), records: count };
      } catch {
        mode = 'malformed';
      }
    }
    if (mode === 'malformed') return { text: head.toString('utf8'), notJson: true };
    return { text: Buffer.concat(chunks).toString('utf8') };
  };
  return { write, end };
};
