#!/usr/bin/env node
// Draws the Fleetdeck logo (three stacked storage decks with status lights on a rounded square) and
// writes the committed icons in build/: icon.png (512×512), icons/<n>x<n>.png for Linux, icon.ico
// (PNG-compressed entries, 16–256) for Windows. Run by hand when the logo changes, never at build
// time: electron-builder packages the committed images. Needs only node:zlib.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';

const BUILD = join(dirname(fileURLToPath(import.meta.url)), '..', 'build');

/** CRC-32 (PNG chunk checksums), table-driven. */
const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes) {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A PNG (8-bit RGBA, no interlace) from straight-alpha pixels. */
function encodePng(size, rgba) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // RGBA
  const raw = Buffer.alloc((size * 4 + 1) * size);
  for (let y = 0; y < size; y++) {
    raw[y * (size * 4 + 1)] = 0; // filter: none
    rgba.copy(raw, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const hex = (h) => [parseInt(h.slice(1, 3), 16), parseInt(h.slice(3, 5), 16), parseInt(h.slice(5, 7), 16)];
const mix = (a, b, t) => a.map((v, i) => v + (b[i] - v) * t);

/** Signed distance to a rounded rectangle centred at (cx, cy) with half sizes (hw, hh) and radius r. */
function roundedRect(x, y, cx, cy, hw, hh, r) {
  const qx = Math.abs(x - cx) - hw + r;
  const qy = Math.abs(y - cy) - hh + r;
  return Math.hypot(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0) - r;
}
const circle = (x, y, cx, cy, r) => Math.hypot(x - cx, y - cy) - r;

const DECKS = [
  { y: 0.31, color: hex('#5fd4c9'), light: hex('#8ff0a4') },
  { y: 0.5, color: hex('#3cb7ad'), light: hex('#8ff0a4') },
  { y: 0.69, color: hex('#2a9990'), light: hex('#ffb454') },
];

/** The colour (straight RGBA, 0–1 alpha) at a point of the unit square, shapes painted back to front. */
function paint(x, y) {
  let rgb = [0, 0, 0];
  let a = 0;
  const over = (color, alpha) => {
    const out = alpha + a * (1 - alpha);
    if (out > 0) rgb = rgb.map((v, i) => (color[i] * alpha + v * a * (1 - alpha)) / out);
    a = out;
  };
  if (roundedRect(x, y, 0.5, 0.5, 0.46, 0.46, 0.19) <= 0) over(mix(hex('#20334f'), hex('#0e1726'), y), 1);
  for (const d of DECKS) {
    if (roundedRect(x, y, 0.5, d.y + 0.012, 0.31, 0.075, 0.045) <= 0) over([0, 0, 0], 0.28); // shadow
    if (roundedRect(x, y, 0.5, d.y, 0.31, 0.075, 0.045) <= 0) over(mix(d.color, [255, 255, 255], Math.max(0, (d.y - y) * 1.2)), 1);
    if (roundedRect(x, y, 0.36, d.y, 0.1, 0.014, 0.012) <= 0) over(hex('#123040'), 0.55); // drive slot
    if (circle(x, y, 0.7, d.y, 0.03) <= 0) over(d.light, 1);
  }
  return [...rgb, a];
}

/** Renders the logo at `size` pixels, 4×4 supersampled for smooth edges. */
function render(size) {
  const n = 4;
  const out = Buffer.alloc(size * size * 4);
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let r = 0;
      let g = 0;
      let b = 0;
      let alpha = 0;
      for (let sy = 0; sy < n; sy++) {
        for (let sx = 0; sx < n; sx++) {
          const [cr, cg, cb, ca] = paint((px + (sx + 0.5) / n) / size, (py + (sy + 0.5) / n) / size);
          r += cr * ca;
          g += cg * ca;
          b += cb * ca;
          alpha += ca;
        }
      }
      const o = (py * size + px) * 4;
      out[o] = alpha ? Math.round(r / alpha) : 0;
      out[o + 1] = alpha ? Math.round(g / alpha) : 0;
      out[o + 2] = alpha ? Math.round(b / alpha) : 0;
      out[o + 3] = Math.round((alpha / (n * n)) * 255);
    }
  }
  return out;
}

/** An ICO whose entries are PNG images (Windows Vista and later; electron-builder accepts it). */
function encodeIco(pngs) {
  const header = Buffer.alloc(6);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2); // icon
  header.writeUInt16LE(pngs.length, 4);
  const entries = [];
  let offset = 6 + 16 * pngs.length;
  for (const { size, png } of pngs) {
    const e = Buffer.alloc(16);
    e[0] = size >= 256 ? 0 : size; // 0 means 256
    e[1] = size >= 256 ? 0 : size;
    e.writeUInt16LE(1, 4); // colour planes
    e.writeUInt16LE(32, 6); // bits per pixel
    e.writeUInt32LE(png.length, 8);
    e.writeUInt32LE(offset, 12);
    offset += png.length;
    entries.push(e);
  }
  return Buffer.concat([header, ...entries, ...pngs.map((p) => p.png)]);
}

const sizes = [16, 24, 32, 48, 64, 128, 256, 512];
const pngs = new Map(sizes.map((s) => [s, encodePng(s, render(s))]));
mkdirSync(join(BUILD, 'icons'), { recursive: true });
writeFileSync(join(BUILD, 'icon.png'), pngs.get(512));
for (const s of [16, 32, 48, 64, 128, 256, 512]) writeFileSync(join(BUILD, 'icons', `${s}x${s}.png`), pngs.get(s));
writeFileSync(join(BUILD, 'icon.ico'), encodeIco([16, 24, 32, 48, 64, 128, 256].map((size) => ({ size, png: pngs.get(size) }))));
console.log(`wrote ${BUILD}/icon.png, icon.ico and icons/ (${[...pngs.values()].reduce((n, p) => n + p.length, 0)} bytes of PNG)`);
