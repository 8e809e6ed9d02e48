// Draws the app icons (a cream horseshoe on saddle brown) as PNGs with nothing but
// node:zlib, so the repository needs no image tooling. Run: node scripts/make-icons.mjs
import { deflateSync } from 'node:zlib';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const BACKGROUND = [124, 74, 30];
const SHOE = [247, 236, 214];
const HOLE = [124, 74, 30];

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

function png(size, rgbAt) {
  const raw = Buffer.alloc((size * 3 + 1) * size);
  for (let y = 0; y < size; y++) {
    raw[y * (size * 3 + 1)] = 0; // filter: none
    for (let x = 0; x < size; x++) {
      const [r, g, b] = rgbAt(x, y);
      const at = y * (size * 3 + 1) + 1 + x * 3;
      raw[at] = r;
      raw[at + 1] = g;
      raw[at + 2] = b;
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // colour type: RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Which colour the point (u, v) in [-1, 1]² has; `scale` shrinks the shoe for maskable icons. */
function shoeColour(u, v, scale) {
  const x = u / scale;
  const y = v / scale + 0.08;
  const r = Math.hypot(x, y);
  const inRing = r > 0.42 && r < 0.72;
  // Open at the bottom: the arms go straight down below the centre.
  const belowCentre = y > 0;
  const inArm = belowCentre && Math.abs(x) > 0.42 && Math.abs(x) < 0.72 && y < 0.62;
  const shoe = (inRing && !belowCentre) || inArm;
  if (!shoe) return null;
  const holes = [
    [-0.57, 0.3],
    [0.57, 0.3],
    [-0.57, 0.0],
    [0.57, 0.0],
    [-0.43, -0.36],
    [0.43, -0.36],
    [0, -0.57],
  ];
  for (const [hx, hy] of holes) if (Math.hypot(x - hx, y - hy) < 0.06) return HOLE;
  return SHOE;
}

function icon(size, scale) {
  const samples = 4;
  return png(size, (px, py) => {
    const sum = [0, 0, 0];
    for (let sy = 0; sy < samples; sy++) {
      for (let sx = 0; sx < samples; sx++) {
        const u = ((px + (sx + 0.5) / samples) / size) * 2 - 1;
        const v = ((py + (sy + 0.5) / samples) / size) * 2 - 1;
        const colour = shoeColour(u, v, scale) ?? BACKGROUND;
        for (let i = 0; i < 3; i++) sum[i] += colour[i];
      }
    }
    return sum.map((s) => Math.round(s / (samples * samples)));
  });
}

const out = (name) => fileURLToPath(new URL(`../public/${name}`, import.meta.url));
writeFileSync(out('icon-192.png'), icon(192, 1));
writeFileSync(out('icon-512.png'), icon(512, 1));
// Maskable icons are cropped to a circle of 80% diameter: keep the shoe inside it.
writeFileSync(out('icon-maskable-512.png'), icon(512, 0.72));
writeFileSync(out('apple-touch-icon.png'), icon(180, 0.85));
