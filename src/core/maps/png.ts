// A fast PNG encoder for opaque RGBA pixels: RGB, "Up" row filter, zlib at a low level.
// The canvas's own encoder spends ~40 ms on a 600×400 map at its fixed compression; maps are
// large flat areas, which a low deflate level already packs well, so this is several times faster.
import { deflateSync, crc32 as zcrc32 } from 'node:zlib';

const SIG = Uint8Array.from([137, 80, 78, 71, 13, 10, 26, 10]);

let table: Uint32Array | null = null;
function crc(buf: Uint8Array): number {
  if (typeof zcrc32 === 'function') return zcrc32(buf) >>> 0;
  if (!table) {
    table = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      table[n] = c >>> 0;
    }
  }
  let c = 0xffffffff;
  for (let i = 0; i < buf.length; i++) c = table[(c ^ buf[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'ascii');
  out.set(data, 8);
  out.writeUInt32BE(crc(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/** RGBA (alpha ignored: the map is opaque) → PNG bytes. */
export function encodePng(rgba: Uint8Array | Uint8ClampedArray, width: number, height: number, level = 3): Uint8Array {
  const stride = width * 3;
  const raw = Buffer.allocUnsafe((stride + 1) * height);
  let o = 0;
  for (let y = 0; y < height; y++) {
    raw[o++] = y === 0 ? 0 : 2; // None for the first row, Up for the rest
    const row = y * width * 4, prev = row - width * 4;
    if (y === 0) {
      for (let x = 0; x < width; x++) { const i = row + 4 * x; raw[o++] = rgba[i]; raw[o++] = rgba[i + 1]; raw[o++] = rgba[i + 2]; }
    } else {
      for (let x = 0; x < width; x++) {
        const i = row + 4 * x, j = prev + 4 * x;
        raw[o++] = (rgba[i] - rgba[j]) & 0xff; raw[o++] = (rgba[i + 1] - rgba[j + 1]) & 0xff; raw[o++] = (rgba[i + 2] - rgba[j + 2]) & 0xff;
      }
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0); ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; ihdr[9] = 2; ihdr[10] = 0; ihdr[11] = 0; ihdr[12] = 0; // 8-bit RGB, no interlace
  return Buffer.concat([SIG, chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw, { level })), chunk('IEND', new Uint8Array(0))]);
}
