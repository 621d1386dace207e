// Map tiles made on the spot for the map tests: a 256x256 PNG per
// {z}/{x}/{y}, its colour from the coordinates, with a darker border so
// tiles can be told apart in a screenshot. No network, no image library:
// PNG is a few zlib-compressed rows and CRC-checked chunks.

import zlib from 'node:zlib';

const CRC = new Uint32Array(256).map((_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buf) {
  let c = 0xffffffff;
  for (const b of buf) c = CRC[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/** A 256x256 RGB PNG for tile z/x/y. */
export function tilePng(z, x, y) {
  const size = 256;
  const rgb = [200 + ((x * 37) % 50), 215 + ((y * 53) % 40), 190 + ((z * 29) % 60)];
  const row = Buffer.alloc(1 + size * 3);
  const raw = [];
  for (let j = 0; j < size; j++) {
    row[0] = 0; // no filter
    for (let i = 0; i < size; i++) {
      const edge = i === 0 || j === 0;
      for (let k = 0; k < 3; k++) row[1 + i * 3 + k] = edge ? rgb[k] - 60 : rgb[k];
    }
    raw.push(Buffer.from(row));
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(Buffer.concat(raw))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * Answers /tiles/{z}/{x}/{y}.png with a generated tile and
 * /tiles-broken/... with a 500 (the tiles-failing case); false for
 * anything else. A handler for helpers.startServer.
 */
export function serveTiles(req, res, url) {
  const m = /^\/(tiles|tiles-broken)\/(\d+)\/(\d+)\/(\d+)\.png$/.exec(url.pathname);
  if (!m) return false;
  if (m[1] === 'tiles-broken') {
    res.writeHead(500, { 'Content-Type': 'text/plain' });
    res.end('tile server down');
    return true;
  }
  res.writeHead(200, { 'Content-Type': 'image/png', 'Access-Control-Allow-Origin': '*', 'Cache-Control': 'no-store' });
  res.end(tilePng(+m[2], +m[3], +m[4]));
  return true;
}
