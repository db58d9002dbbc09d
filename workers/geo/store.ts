// Opens the gazetteer's three containers as zero-copy views over the shared buffers.
//
// kdbush 4.1.0's `from(buffer)` reads from byte 0 of its buffer and takes no offset, and
// our kd sections sit inside a bigger container. Rather than copy each section per
// worker, `kdView` rebuilds the index object around views at the section's offset
// (the same fields `KDBush.from` sets), so all workers share one copy. Flatbush 4.7
// accepts `from(buffer, byteOffset)` and is used as is.
import KDBush from 'kdbush';
import Flatbush from 'flatbush';
import { open, FormatError, type Opened } from '../../src/core/format/index.ts';
import type { Dataset } from '../../src/core/task.ts';
import { GAZ_FILES, GAZ_VERSION, GAZ_READS_ALSO } from '../../src/core/format/gazetteer.ts';
import { buildNameRecords } from '../../src/core/text/records.ts';
import { nameKey } from '../../src/core/text/normalize.ts';

const ARRAY_TYPES = [Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array, Int32Array, Uint32Array, Float32Array, Float64Array];

export function kdView(sec: Uint8Array): KDBush {
  const buf = sec.buffer as ArrayBuffer, off = sec.byteOffset;
  if (sec[0] !== 0xdb || sec[1] >> 4 !== 1) throw new Error('kd section is not a KDBush v1 index');
  const ArrayType = ARRAY_TYPES[sec[1] & 0x0f] as any;
  const nodeSize = new Uint16Array(buf, off + 2, 1)[0];
  const numItems = new Uint32Array(buf, off + 4, 1)[0];
  const IndexArrayType = numItems < 65536 ? Uint16Array : Uint32Array;
  const idsBytes = numItems * IndexArrayType.BYTES_PER_ELEMENT;
  const pad = (8 - (idsBytes % 8)) % 8;
  const kd = Object.create(KDBush.prototype) as any;
  Object.assign(kd, {
    data: buf, numItems, nodeSize, ArrayType, IndexArrayType,
    ids: new IndexArrayType(buf, off + 8, numItems),
    coords: new ArrayType(buf, off + 8 + idsBytes + pad, numItems * 2),
    _pos: numItems * 2, _finished: true,
  });
  return kd as KDBush;
}

export function fbView(sec: Uint8Array | undefined): Flatbush | null {
  if (!sec) return null;
  return Flatbush.from(sec.buffer as ArrayBuffer, sec.byteOffset);
}

const dec = new TextDecoder();

/**
 * A blob of UTF-8 strings as a Buffer view (no copy) with its offsets: `Buffer#toString`
 * decodes a range directly, about twice as fast as a subarray + TextDecoder per string,
 * and answers decode 3–4 strings per result.
 */
class Strings {
  private buf: Buffer;
  constructor(bytes: Uint8Array, private off: Uint32Array) {
    this.buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  at(i: number): string {
    const s = this.off[i], e = this.off[i + 1];
    return s === e ? '' : this.buf.toString('utf8', s, e);
  }
}

export class Gazetteer {
  readonly meta: any;
  readonly manifest: any;
  // features
  lat: Float64Array; lng: Float64Array; importance: Float32Array; cat: Uint8Array; country: Uint8Array; admin1: Uint16Array;
  pop: Uint32Array; srcMask: Uint32Array; locality: Int32Array;
  codeStr: Uint8Array; codeOff: Uint32Array; codeOrder: Uint32Array; nameStr: Uint8Array; nameOff: Uint32Array;
  addrStr: Uint8Array; addrOff: Uint32Array; extraStr: Uint8Array; extraOff: Uint32Array;
  // text
  tokStr: Uint8Array; tokOff: Uint32Array; tokMaxImp: Float32Array; postStart: Uint32Array; postings: Uint32Array;
  nameFeat: Uint32Array; nameTokStart: Uint32Array; nameToks: Uint32Array; altStr: Uint8Array; altOff: Uint32Array;
  ctxStart: Uint32Array; ctxToks: Uint32Array; delDir: Uint32Array; delHash: Uint32Array; delTok: Uint32Array; delShift: number;
  /** Per token, the tokens the typo lookup finds for it (format v2; null in a v1 file). */
  nbStart: Uint32Array | null; nbTok: Uint32Array | null;
  /** Name records (see records.ts; format v2, derived per worker from a v1 file), and a Float32 view of them for the importance. */
  recStart: Uint32Array; rec: Uint32Array; recF: Float32Array;
  /** Token strings, decoded once per worker (≈120k short strings): prefix search and edit-distance checks need them as JS strings. */
  tokens: string[];
  // spatial
  kd: Record<string, KDBush>;
  cStart: Uint32Array; cCoords: Float64Array; cOwner: Uint32Array; cIndex: Flatbush | null;
  /** Admin-1 polygon rings (format v3; empty in older files) and each feature's unit (0xffff = none). */
  a1Start: Uint32Array; a1Coords: Float64Array; a1Owner: Uint32Array; a1Index: Flatbush | null; admin1Unit: Uint16Array | null;
  wCoords: Float64Array; wSeg: Uint32Array; wSegOwner: Uint32Array; wIndex: Flatbush | null;
  lkStart: Uint32Array; lkCoords: Float64Array; lkOwner: Uint32Array; lkIndex: Flatbush | null;
  sCoords: Float64Array; sSeg: Uint32Array; sSegOwner: Uint32Array; sIndex: Flatbush | null;
  /** Rings of OpenStreetMap admin_level boundaries (format v4; owner = feature id in layer admin); empty without full-tag extracts. */
  adStart: Uint32Array; adCoords: Float64Array; adOwner: Uint32Array; adIndex: Flatbush | null;
  layers: Record<string, [number, number]>;
  n: number;
  private codes: Strings; private names: Strings; private addrs: Strings; private extras: Strings; private alts: Strings;
  /** Each name's address-parser key (format v4), or null: then computed from the name. */
  private lexKeys: Strings | null;

  constructor(ds: Dataset) {
    const o = (k: keyof typeof GAZ_FILES): Opened => {
      const f = GAZ_FILES[k];
      const buf = ds.files[f.file];
      if (!buf) throw new Error(`${ds.dir}: gazetteer file ${f.file} missing from the dataset`);
      const file = `${ds.dir}/${f.file}`;
      try {
        return open(buf, { file, kind: f.kind, version: GAZ_VERSION });
      } catch (e) {
        // An older layout this build still reads (GAZ_READS_ALSO); otherwise the first error.
        if (!(e instanceof FormatError)) throw e;
        for (const version of GAZ_READS_ALSO) {
          try { return open(buf, { file, kind: f.kind, version }); } catch { /* next */ }
        }
        throw e;
      }
    };
    const F = o('features'), T = o('text'), S = o('spatial');
    this.manifest = ds.manifest;
    this.meta = F.meta;
    this.layers = F.meta.layers;
    const u8 = (x: Opened, k: string) => x.get(k, Uint8Array);
    const u32 = (x: Opened, k: string) => x.get(k, Uint32Array);
    this.lat = F.get('lat', Float64Array); this.lng = F.get('lng', Float64Array); this.importance = F.get('importance', Float32Array);
    this.cat = u8(F, 'cat'); this.country = u8(F, 'country'); this.admin1 = F.get('admin1', Uint16Array); this.pop = u32(F, 'pop');
    this.srcMask = u32(F, 'srcMask'); this.locality = F.get('locality', Int32Array);
    this.codeStr = u8(F, 'codeStr'); this.codeOff = u32(F, 'codeOff'); this.codeOrder = u32(F, 'codeOrder');
    this.nameStr = u8(F, 'nameStr'); this.nameOff = u32(F, 'nameOff'); this.addrStr = u8(F, 'addrStr'); this.addrOff = u32(F, 'addrOff');
    this.extraStr = u8(F, 'extraStr'); this.extraOff = u32(F, 'extraOff');
    this.n = this.lat.length;

    this.tokStr = u8(T, 'tokStr'); this.tokOff = u32(T, 'tokOff'); this.tokMaxImp = T.get('tokMaxImp', Float32Array);
    this.postStart = u32(T, 'postStart'); this.postings = u32(T, 'postings');
    this.nameFeat = u32(T, 'nameFeat'); this.nameTokStart = u32(T, 'nameTokStart'); this.nameToks = u32(T, 'nameToks');
    this.altStr = u8(T, 'nameStr'); this.altOff = u32(T, 'nameOff');
    this.codes = new Strings(this.codeStr, this.codeOff); this.names = new Strings(this.nameStr, this.nameOff);
    this.addrs = new Strings(this.addrStr, this.addrOff); this.extras = new Strings(this.extraStr, this.extraOff);
    this.alts = new Strings(this.altStr, this.altOff);
    this.lexKeys = T.sections.lexKeyStr ? new Strings(u8(T, 'lexKeyStr'), u32(T, 'lexKeyOff')) : null;
    this.ctxStart = u32(T, 'ctxStart'); this.ctxToks = u32(T, 'ctxToks');
    this.delDir = u32(T, 'delDir'); this.delHash = u32(T, 'delHash'); this.delTok = u32(T, 'delTok');
    this.delShift = 32 - Math.log2(this.delDir.length - 1);
    this.nbStart = T.sections.nbStart ? u32(T, 'nbStart') : null;
    this.nbTok = T.sections.nbTok ? u32(T, 'nbTok') : null;
    if (T.sections.nameRec) {
      this.recStart = u32(T, 'nameRecStart'); this.rec = u32(T, 'nameRec');
    } else {
      const imp = this.importance;
      ({ recStart: this.recStart, rec: this.rec } = buildNameRecords(this.nameFeat, this.nameTokStart, this.nameToks, this.ctxStart, this.ctxToks, (f) => imp[f]));
    }
    this.recF = new Float32Array(this.rec.buffer, this.rec.byteOffset, this.rec.length);
    const nt = this.tokOff.length - 1;
    this.tokens = new Array(nt);
    // One decode of the whole blob, then slicing at UTF-16 offsets computed from the UTF-8
    // lead bytes: ~10x faster than 120k separate decode calls.
    const all = dec.decode(this.tokStr);
    const bytes = this.tokStr;
    let units = 0, b = 0;
    for (let i = 0; i < nt; i++) {
      const start = units;
      const end = this.tokOff[i + 1];
      for (; b < end; b++) {
        const c = bytes[b];
        if ((c & 0xc0) !== 0x80) units += c >= 0xf0 ? 2 : 1;
      }
      this.tokens[i] = all.slice(start, units);
    }
    this.kd = {};
    for (const l of ['place', 'poi', 'health', 'transit', 'quake', 'street', 'address']) if (S.sections[`kd_${l}`]) this.kd[l] = kdView(u8(S, `kd_${l}`));
    this.cStart = u32(S, 'cStart'); this.cCoords = S.get('cCoords', Float64Array); this.cOwner = u32(S, 'cOwner'); this.cIndex = fbView(S.sections.cIndex as Uint8Array);
    const has = (x: Opened, k: string) => !!x.sections[k];
    this.a1Start = has(S, 'a1Start') ? u32(S, 'a1Start') : new Uint32Array(1);
    this.a1Coords = has(S, 'a1Coords') ? S.get('a1Coords', Float64Array) : new Float64Array(0);
    this.a1Owner = has(S, 'a1Owner') ? u32(S, 'a1Owner') : new Uint32Array(0);
    this.a1Index = has(S, 'a1Index') ? fbView(S.sections.a1Index as Uint8Array) : null;
    this.admin1Unit = has(F, 'admin1Unit') ? F.get('admin1Unit', Uint16Array) : null;
    this.wCoords = S.get('wCoords', Float64Array); this.wSeg = u32(S, 'wSeg'); this.wSegOwner = u32(S, 'wSegOwner'); this.wIndex = fbView(S.sections.wIndex as Uint8Array);
    this.lkStart = u32(S, 'lkStart'); this.lkCoords = S.get('lkCoords', Float64Array); this.lkOwner = u32(S, 'lkOwner'); this.lkIndex = fbView(S.sections.lkIndex as Uint8Array);
    this.adStart = has(S, 'adStart') ? u32(S, 'adStart') : new Uint32Array(1);
    this.adCoords = has(S, 'adCoords') ? S.get('adCoords', Float64Array) : new Float64Array(0);
    this.adOwner = has(S, 'adOwner') ? u32(S, 'adOwner') : new Uint32Array(0);
    this.adIndex = has(S, 'adIndex') ? fbView(S.sections.adIndex as Uint8Array) : null;
    this.sCoords = S.get('sCoords', Float64Array); this.sSeg = u32(S, 'sSeg'); this.sSegOwner = u32(S, 'sSegOwner'); this.sIndex = fbView(S.sections.sIndex as Uint8Array);
  }

  code(i: number): string { return this.codes.at(i); }
  name(i: number): string | null { const s = this.names.at(i); return s === '' ? null : s; }
  address(i: number): string { return this.addrs.at(i); }
  extra(i: number): Record<string, unknown> | null { const s = this.extras.at(i); return s ? JSON.parse(s) : null; }
  altName(n: number): string { return this.alts.at(n); }
  /** nameKey of name n: stored by the build, so a worker's lexicon does not fold 180k names at start. */
  lexKey(n: number): string { return this.lexKeys ? this.lexKeys.at(n) : nameKey(this.alts.at(n)); }
  countryCode(i: number): string | null { const c = this.country[i]; return c === 0xff ? null : this.meta.countries[c].code; }
  countryName(i: number): string | null { const c = this.country[i]; return c === 0xff ? null : this.meta.countries[c].name; }
  admin1Name(i: number): string | null { const a = this.admin1[i]; return a === 0xffff ? null : this.meta.admin1[a]; }
  /** Admin-1 units of the polygons (meta, format v3), [] in older files. */
  get admin1Units(): { code: string; name: string; country: string; type: string | null; hasc: string | null; alt: string[] }[] {
    return this.meta.admin1_units ?? [];
  }
  /** Feature id of admin-1 unit u (layer admin1), or -1. */
  admin1Feature(u: number): number {
    const r = this.layers.admin1;
    return r && u >= 0 && r[0] + u < r[1] ? r[0] + u : -1;
  }
  category(i: number): string { return this.meta.categories[this.cat[i]]; }
  sources(i: number): string[] {
    const m = this.srcMask[i];
    const out: string[] = [];
    for (let b = 0; b < this.meta.sources.length; b++) if (m & (1 << b)) out.push(this.meta.sources[b].key);
    return out;
  }
  layerOf(i: number): string {
    for (const [l, [s, e]] of Object.entries(this.layers)) if (i >= s && i < e) return l;
    return 'unknown';
  }

  /** Feature index of a stable code (binary search over codes in byte order), or -1. */
  find(code: string): number {
    const want = new TextEncoder().encode(code);
    let lo = 0, hi = this.codeOrder.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const i = this.codeOrder[mid];
      const c = cmpBytes(this.codeStr, this.codeOff[i], this.codeOff[i + 1], want);
      if (c === 0) return i;
      if (c < 0) lo = mid + 1; else hi = mid - 1;
    }
    return -1;
  }
}

function cmpBytes(a: Uint8Array, s: number, e: number, b: Uint8Array): number {
  const n = Math.min(e - s, b.length);
  for (let k = 0; k < n; k++) { const d = a[s + k] - b[k]; if (d) return d; }
  return e - s - b.length;
}
