import { crc32 } from 'node:zlib';

/**
 * A ZIP archive of files stored as they are (no compression: PDF is compressed already, and a
 * report is small), names in UTF-8. It is how a multi-file export reaches a browser as one download.
 * Files and the archive stay under 4 GiB (no ZIP64).
 */
export function zipStored(files: ReadonlyArray<{ path: string; data: Uint8Array }>, at: Date = new Date()): Buffer {
  const time = (at.getHours() << 11) | (at.getMinutes() << 5) | (at.getSeconds() >> 1);
  const date = (Math.max(at.getFullYear() - 1980, 0) << 9) | ((at.getMonth() + 1) << 5) | at.getDate();
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const f of files) {
    const name = Buffer.from(f.path, 'utf8');
    const crc = crc32(f.data);
    // Shared by the local header (from its version field) and the central one (from its version-needed field).
    const common = Buffer.alloc(26);
    common.writeUInt16LE(20, 0);
    common.writeUInt16LE(0x0800, 2); // names are UTF-8
    common.writeUInt16LE(0, 4); // stored
    common.writeUInt16LE(time, 6);
    common.writeUInt16LE(date, 8);
    common.writeUInt32LE(crc, 10);
    common.writeUInt32LE(f.data.length, 14);
    common.writeUInt32LE(f.data.length, 18);
    common.writeUInt16LE(name.length, 22);
    common.writeUInt16LE(0, 24);
    const local = Buffer.concat([u32(0x04034b50), common, name, f.data]);
    const tail = Buffer.alloc(14);
    tail.writeUInt32LE(offset, 10); // comment length, disk, attributes 0; then the local header's offset
    centrals.push(Buffer.concat([u32(0x02014b50), u16(20), common, tail, name]));
    locals.push(local);
    offset += local.length;
  }
  const central = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(files.length, 8);
  end.writeUInt16LE(files.length, 10);
  end.writeUInt32LE(central.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, central, end]);
}

function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n, 0);
  return b;
}
function u16(n: number): Buffer {
  const b = Buffer.alloc(2);
  b.writeUInt16LE(n, 0);
  return b;
}
