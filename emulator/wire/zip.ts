/**
 * A zip archive of one file, as the family's symbol masters are served (`NSE_symbols.txt.zip` holds
 * `NSE_symbols.txt`): one deflated entry, its local header, the central directory and its end record (PKWARE
 * APPNOTE 4.3). Enough for every unzip tool and for the gateway's reader.
 */
import { crc32, deflateRawSync } from 'node:zlib';

export const zipOne = (name: string, content: Buffer, date = new Date()): Buffer => {
  const data = deflateRawSync(content);
  const file = Buffer.from(name, 'utf8');
  const crc = crc32(content);
  const time = (date.getUTCHours() << 11) | (date.getUTCMinutes() << 5) | Math.floor(date.getUTCSeconds() / 2);
  const day = ((date.getUTCFullYear() - 1980) << 9) | ((date.getUTCMonth() + 1) << 5) | date.getUTCDate();
  const common = (header: Buffer, at: number) => {
    header.writeUInt16LE(20, at); // version needed
    header.writeUInt16LE(0, at + 2); // flags
    header.writeUInt16LE(8, at + 4); // deflate
    header.writeUInt16LE(time, at + 6);
    header.writeUInt16LE(day, at + 8);
    header.writeUInt32LE(crc, at + 10);
    header.writeUInt32LE(data.length, at + 14);
    header.writeUInt32LE(content.length, at + 18);
    header.writeUInt16LE(file.length, at + 22);
  };
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  common(local, 4);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4); // version made by
  common(central, 6);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length + file.length, 12);
  end.writeUInt32LE(local.length + file.length + data.length, 16);
  return Buffer.concat([local, file, data, central, file, end]);
};
