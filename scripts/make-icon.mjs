#!/usr/bin/env node
// Draws the app icon and writes build/icon.png (1024x1024 RGBA), the one source electron-builder turns
// into .icns, .ico and the Linux sizes. Drawn in code so that it can be regenerated without an image
// editor: a dark rounded square, an accent ring (the desk watching traffic) and a check mark (a verified
// signature). Run: node scripts/make-icon.mjs [out.png]
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';

const SIZE = 1024;

const CRC_TABLE = new Uint32Array(256).map((_, n) => {
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
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** A PNG file of an RGBA image (rows top to bottom, 4 bytes a pixel). */
export function encodePng(width, height, rgba) {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // colour type: RGBA
  ihdr[10] = 0; // deflate
  ihdr[11] = 0; // adaptive filtering
  ihdr[12] = 0; // no interlace
  const raw = Buffer.alloc((width * 4 + 1) * height);
  for (let y = 0; y < height; y++) {
    raw[y * (width * 4 + 1)] = 0; // filter: none
    rgba.copy(raw, y * (width * 4 + 1) + 1, y * width * 4, (y + 1) * width * 4);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

// Signed distances (negative inside), in pixels.
const roundedSquare = (x, y, c, half, r) => {
  const qx = Math.abs(x - c) - half + r;
  const qy = Math.abs(y - c) - half + r;
  return Math.hypot(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0) - r;
};
const ring = (x, y, c, radius, width) => Math.abs(Math.hypot(x - c, y - c) - radius) - width / 2;
function segment(x, y, ax, ay, bx, by, width) {
  const px = x - ax,
    py = y - ay,
    dx = bx - ax,
    dy = by - ay;
  const t = Math.max(0, Math.min(1, (px * dx + py * dy) / (dx * dx + dy * dy)));
  return Math.hypot(px - t * dx, py - t * dy) - width / 2;
}
const coverage = (d) => Math.max(0, Math.min(1, 0.5 - d)); // one-pixel anti-aliased edge

export function drawIcon(size = SIZE) {
  const s = size / 1024;
  const c = size / 2;
  const rgba = Buffer.alloc(size * size * 4);
  const background = [16, 24, 32];
  const accent = [46, 204, 138];
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const px = x + 0.5,
        py = y + 0.5;
      const tile = coverage(roundedSquare(px, py, c, 460 * s, 180 * s));
      if (tile === 0) continue;
      const mark = Math.max(
        coverage(ring(px, py, c, 300 * s, 56 * s)),
        coverage(Math.min(segment(px, py, 360 * s, 530 * s, 470 * s, 640 * s, 72 * s), segment(px, py, 470 * s, 640 * s, 680 * s, 400 * s, 72 * s))),
      );
      const i = (y * size + x) * 4;
      for (let k = 0; k < 3; k++) rgba[i + k] = Math.round(background[k] * (1 - mark) + accent[k] * mark);
      rgba[i + 3] = Math.round(255 * tile);
    }
  }
  return encodePng(size, size, rgba);
}

const invokedDirectly = process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (invokedDirectly) {
  const out = resolve(process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '..', 'build', 'icon.png'));
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, drawIcon());
  process.stderr.write(`wrote ${out}\n`);
}
