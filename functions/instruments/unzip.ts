/**
 * The first file of a zip archive (a symbol master is one file in one zip), read from its central directory, stored
 * or deflated, bounded: an archive that is not one, an unknown method or a file above `maxBytes` is an error naming
 * what was wrong, never a crash.
 */
import { inflateRawSync } from 'node:zlib';

const END = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

export const firstZipEntry = (zip: Buffer, maxBytes: number): { name: string; content: Buffer } => {
  // The end record sits in the last 22 bytes plus at most a 64 KiB comment.
  let end = -1;
  for (let at = zip.length - 22; at >= Math.max(0, zip.length - 22 - 0xffff); at -= 1) {
    if (zip.readUInt32LE(at) === END) {
      end = at;
      break;
    }
  }
  if (end < 0) throw new Error('not a zip archive (no end of central directory)');
  const central = zip.readUInt32LE(end + 16);
  if (central + 46 > zip.length || zip.readUInt32LE(central) !== CENTRAL)
    throw new Error('zip central directory not found');
  const method = zip.readUInt16LE(central + 10);
  const size = zip.readUInt32LE(central + 20);
  const plainSize = zip.readUInt32LE(central + 24);
  const nameLength = zip.readUInt16LE(central + 28);
  const local = zip.readUInt32LE(central + 42);
  const name = zip.subarray(central + 46, central + 46 + nameLength).toString('utf8');
  if (plainSize > maxBytes) throw new Error(`${name} is ${plainSize} bytes, above the ${maxBytes} allowed`);
  if (local + 30 > zip.length || zip.readUInt32LE(local) !== LOCAL) throw new Error(`${name}: local header not found`);
  const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
  const data = zip.subarray(start, start + size);
  if (method === 0) return { name, content: Buffer.from(data) };
  if (method !== 8) throw new Error(`${name}: compression method ${method} is not supported (stored or deflate)`);
  return { name, content: inflateRawSync(data, { maxOutputLength: maxBytes }) };
};
