import { readFileSync } from 'node:fs';

/** What a SQLite WAL file holds since its last reset. */
export interface WalFrames {
  commits: number;
  frames: number;
  bytes: number;
}

/**
 * The frames and commits of a WAL file written since its last reset (SQLite's WAL format: a
 * 32-byte header, then frames of a 24-byte header and a page; a commit's frame holds the database
 * size after it). Frames of an earlier generation (other salts) are no longer part of the file.
 */
export function walFrames(file: string): WalFrames {
  const wal = readFileSync(file);
  const out = { commits: 0, frames: 0, bytes: 0 };
  if (wal.length < 32) return out;
  const pageSize = wal.readUInt32BE(8);
  const salts = [wal.readUInt32BE(16), wal.readUInt32BE(20)];
  for (let at = 32; at + 24 + pageSize <= wal.length; at += 24 + pageSize) {
    if (wal.readUInt32BE(at + 8) !== salts[0] || wal.readUInt32BE(at + 12) !== salts[1]) break;
    out.frames++;
    out.bytes += 24 + pageSize;
    if (wal.readUInt32BE(at + 4) !== 0) out.commits++;
  }
  return out;
}
