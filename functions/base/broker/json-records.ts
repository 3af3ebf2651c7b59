/**
 * A broker's list reply read as it arrives: the elements of a top-level JSON array are cut out of the byte stream one
 * by one and each is parsed on its own, so a list of any length is never held as one text, nor as text and a parsed
 * copy at once. Only the element being read is kept (bounded by `maxRecordBytes`).
 *
 * The scan works on bytes: every structural character of JSON (`[ ] { } " , \`) is ASCII, and no byte of a multi-byte
 * UTF-8 character is below 0x80, so a character split between two chunks cannot be mistaken for one. An element's
 * bytes are decoded and parsed by `JSON.parse` when it is complete, so its strings, escapes and numbers are read
 * exactly as a whole-body `JSON.parse` reads them.
 */

/** The reply is not a JSON array, or not a well-formed one: the caller reads it as text instead. */
export class NotAJsonArray extends Error {
  override readonly name = 'NotAJsonArray';
}

/** One element was larger than the bound: a record of this family is about 600 bytes. */
export class RecordTooLarge extends Error {
  override readonly name = 'RecordTooLarge';
}

const OPEN_ARRAY = 0x5b; // [
const CLOSE_ARRAY = 0x5d; // ]
const OPEN_OBJECT = 0x7b; // {
const CLOSE_OBJECT = 0x7d; // }
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const isSpace = (byte: number) => byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;

/**
 * Splits a JSON array's byte stream into its elements. `write` each chunk as it arrives, then `end`; `onElement`
 * gets each element parsed, in order. Throws NotAJsonArray as soon as the bytes cannot be a JSON array (including a
 * body that is not one at all: check the first byte with `startsArray` first), RecordTooLarge past the bound.
 */
export class JsonArraySplitter {
  /** 0: before `[`; 1: between elements; 2: inside an element; 3: after `]`. */
  private phase: 0 | 1 | 2 | 3 = 0;
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** Whether the last element ended and a `,` or `]` is expected. */
  private afterElement = false;
  private pieces: Buffer[] = [];
  private pieceBytes = 0;
  private count = 0;
  /** The reply's bytes while it may still be read whole (`wholeBelow`); undefined once streaming. */
  private whole: Buffer[] | undefined;
  private wholeBytes = 0;

  constructor(
    /** Each element parsed, its index, and its text as it came (a hash of it says whether it changed). */
    /** `bytes`: only when not parsing (`parse` false), then `text` is '': the element's bytes, valid during the call. */
    private readonly onElement: (element: unknown, index: number, text: string, bytes?: Buffer) => void,
    private readonly maxRecordBytes: number,
    /**
     * For a sink that does not read the texts (they come as ''): a reply that ends within this many bytes is parsed
     * whole by one `JSON.parse` (native, far cheaper than the scan in a process not yet hot), then handed on element
     * by element; past it, the bytes held are scanned and the rest streams as usual. Then a record is bounded by
     * this, not by `maxRecordBytes`.
     */
    private readonly wholeBelow = 0,
    /**
     * false: elements are handed on as their bytes only (`undefined` for the element, '' for the text), for a sink
     * that recognises most records by their bytes and decodes the others itself (the GttWatcher's:
     * pending-stream.ts). An element that is not JSON is then the sink's to find.
     */
    private readonly parse = true,
  ) {
    if (wholeBelow > 0) this.whole = [];
  }

  /** Elements read so far. */
  get elements(): number {
    return this.count;
  }

  write(chunk: Buffer): void {
    if (this.whole) {
      this.wholeBytes += chunk.length;
      // A copy: the chunk's memory is the socket's to reuse.
      this.whole.push(Buffer.from(chunk));
      if (this.wholeBytes <= this.wholeBelow) return;
      const held = this.whole;
      this.whole = undefined;
      for (const piece of held) this.scan(piece);
      return;
    }
    this.scan(chunk);
  }

  private scan(chunk: Buffer): void {
    let start = -1; // where the current element's bytes begin in this chunk
    for (let i = 0; i < chunk.length; i++) {
      const byte = chunk[i]!;
      if (this.phase === 2) {
        if (this.inString) {
          if (this.escaped) this.escaped = false;
          else if (byte === BACKSLASH) this.escaped = true;
          else if (byte === QUOTE) this.inString = false;
          continue;
        }
        if (byte === QUOTE) this.inString = true;
        else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) this.depth++;
        else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) {
          if (this.depth === 0) {
            // `]` ends a scalar last element (`[1,2]`).
            if (byte !== CLOSE_ARRAY) throw new NotAJsonArray('unbalanced reply');
            this.finish(chunk, start, i);
            start = -1;
            this.phase = 3;
            continue;
          }
          this.depth--;
          if (this.depth === 0 && byte === CLOSE_OBJECT) {
            // An object element is complete with its closing brace.
            this.finish(chunk, start, i + 1);
            start = -1;
            continue;
          }
        } else if (byte === COMMA && this.depth === 0) {
          this.finish(chunk, start, i);
          start = -1;
          this.afterElement = false;
          continue;
        }
        continue;
      }
      if (isSpace(byte)) continue;
      if (this.phase === 0) {
        if (byte !== OPEN_ARRAY) throw new NotAJsonArray('the reply is not a JSON array');
        this.phase = 1;
        continue;
      }
      if (this.phase === 3) throw new NotAJsonArray('bytes after the end of the array');
      // phase 1: between elements.
      if (this.afterElement) {
        if (byte === COMMA) this.afterElement = false;
        else if (byte === CLOSE_ARRAY) this.phase = 3;
        else throw new NotAJsonArray('expected , or ] between elements');
        continue;
      }
      if (byte === CLOSE_ARRAY) {
        if (this.count > 0) throw new NotAJsonArray('a , before ]');
        this.phase = 3;
        continue;
      }
      // An element begins.
      this.phase = 2;
      start = i;
      this.depth = 0;
      if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) this.depth = 1;
      else if (byte === QUOTE) this.inString = true;
    }
    // The element goes on in the next chunk (it began in this one, or before it).
    if (this.phase === 2) this.keep(chunk.subarray(start < 0 ? 0 : start));
  }

  /** The body ended: throws when the array was not closed. */
  end(): void {
    if (this.whole) {
      const text = Buffer.concat(this.whole).toString('utf8');
      this.whole = undefined;
      let elements: unknown;
      try {
        elements = JSON.parse(text);
      } catch {
        throw new NotAJsonArray('the reply is not a well-formed JSON array');
      }
      if (!Array.isArray(elements)) throw new NotAJsonArray('the reply is not a JSON array');
      this.phase = 3;
      for (const element of elements as unknown[]) this.onElement(element, this.count++, '');
      return;
    }
    if (this.phase !== 3) throw new NotAJsonArray('the reply ended before its array did');
  }

  private keep(bytes: Buffer) {
    this.pieceBytes += bytes.length;
    if (this.pieceBytes > this.maxRecordBytes)
      throw new RecordTooLarge(`a record of the reply is larger than ${this.maxRecordBytes} bytes`);
    // A copy: the chunk's memory is the socket's to reuse.
    this.pieces.push(Buffer.from(bytes));
  }

  /** The element ends at `end` (exclusive) of this chunk: parse it, hand it on, forget its bytes. */
  private finish(chunk: Buffer, start: number, end: number) {
    const tail = chunk.subarray(start < 0 ? 0 : start, end);
    let bytes: Buffer;
    if (this.pieces.length === 0) {
      // Whole in this chunk: read in place (it is handed on before the chunk goes back to the socket).
      if (tail.length > this.maxRecordBytes)
        throw new RecordTooLarge(`a record of the reply is larger than ${this.maxRecordBytes} bytes`);
      bytes = tail;
    } else {
      this.keep(tail);
      bytes = this.pieces.length === 1 ? this.pieces[0]! : Buffer.concat(this.pieces);
    }
    this.pieces = [];
    this.pieceBytes = 0;
    this.phase = 1;
    this.afterElement = true;
    this.depth = 0;
    if (!this.parse) {
      this.onElement(undefined, this.count++, '', bytes);
      return;
    }
    const text = bytes.toString('utf8');
    let element: unknown;
    try {
      element = JSON.parse(text);
    } catch {
      throw new NotAJsonArray('an element of the array is not JSON');
    }
    this.onElement(element, this.count++, text);
  }
}
