// Units of the gazetteer: normalisation, typo distance, the zip and CSV readers, and
// the "same facility" rule of the health deduplication. Small fixtures written here.
import { describe, it, expect } from 'vitest';
import { deflateRawSync } from 'node:zlib';
import { tokens, fold, maxEdits, editDistance, deletes, hash32 } from '../../src/core/text/normalize.ts';
import { resolveCategory, inLagos } from '../../src/core/categories.ts';
import { zipEntries, zipText } from '../../graph-build/gazetteer/zip.ts';
import { parseCsv } from '../../graph-build/gazetteer/csv.ts';
import { sameFacility } from '../../graph-build/gazetteer/sources/health.ts';
import { storedDeletes } from '../../graph-build/gazetteer/textindex.ts';

describe('normalisation', () => {
  it('folds case, diacritics, punctuation and special letters', () => {
    expect(tokens('Uíge')).toEqual(['uige']);
    expect(tokens("N'Djamena")).toEqual(['ndjamena']);
    expect(tokens('Saint-Louis')).toEqual(['saint', 'louis']);
    expect(tokens('Ségou, Mali')).toEqual(['segou', 'mali']);
    expect(fold('Straße Øster Łódź')).toBe('strasse oster lodz');
  });
  it('expands abbreviations; St is Saint first and Street elsewhere', () => {
    expect(tokens('St. Mary’s Hospital')).toEqual(['saint', 'marys', 'hospital']);
    expect(tokens('Broad St')).toEqual(['broad', 'street']);
    expect(tokens('Ring Rd')).toEqual(['ring', 'road']);
    expect(tokens('Kenyatta Ave.')).toEqual(['kenyatta', 'avenue']);
    expect(tokens('Health Center')).toEqual(['health', 'centre']);
  });
  it('gives the typo budget of issue 4 (one edit from 5 letters, two from 9)', () => {
    expect([3, 4, 5, 8, 9, 12].map(maxEdits)).toEqual([0, 0, 1, 1, 2, 2]);
  });
  it('measures optimal-string-alignment distance with an early exit', () => {
    expect(editDistance('lagos', 'lagso', 2)).toBe(1);
    expect(editDistance('nairobi', 'nairoby', 2)).toBe(1);
    expect(editDistance('ouagadougou', 'ouagadugu', 2)).toBe(2);
    expect(editDistance('kampala', 'kigali', 1)).toBe(2); // capped at max + 1
  });
  it('meets a typo from both sides through the deletion table', () => {
    // Any two words within the budget share a variant: what makes hash lookups enough.
    const pairs: [string, string][] = [['lagos', 'lagso'], ['mombasa', 'mobmasa'], ['ouagadougou', 'ouagadogou'], ['libya', 'lbya'], ['dodoma', 'dodomaa']];
    for (const [dict, query] of pairs) {
      const a = deletes(dict, storedDeletes(dict.length));
      const b = deletes(query, maxEdits(query.length + 1));
      expect([...b].some((v) => a.has(v)), `${dict}/${query}`).toBe(true);
    }
    expect(hash32('lagos')).toBe(hash32('lagos'));
    expect(hash32('lagos')).not.toBe(hash32('lagso'));
  });
  it('resolves nearby categories and aliases; unknown ones are null', () => {
    expect(resolveCategory('Pharmacy')).toBe('pharmacy');
    expect(resolveCategory('health center')).toBe('health_centre');
    expect(resolveCategory('bus_station')).toBe('bus_stop');
    expect(resolveCategory('spaceport')).toBeNull();
  });
  it('knows the Lagos sandbox box', () => {
    expect(inLagos(6.45, 3.39)).toBe(true);
    expect(inLagos(-1.28, 36.82)).toBe(false);
  });
});

/** A zip with one stored and one deflated entry, written by hand. */
function makeZip(files: [string, string, boolean][]): Buffer {
  const locals: Buffer[] = [], centrals: Buffer[] = [];
  let off = 0;
  for (const [name, text, deflate] of files) {
    const raw = Buffer.from(text), data = deflate ? deflateRawSync(raw) : raw, nm = Buffer.from(name);
    const lh = Buffer.alloc(30);
    lh.writeUInt32LE(0x04034b50, 0); lh.writeUInt16LE(deflate ? 8 : 0, 8); lh.writeUInt32LE(data.length, 18); lh.writeUInt32LE(raw.length, 22); lh.writeUInt16LE(nm.length, 26);
    const ch = Buffer.alloc(46);
    ch.writeUInt32LE(0x02014b50, 0); ch.writeUInt16LE(deflate ? 8 : 0, 10); ch.writeUInt32LE(data.length, 20); ch.writeUInt32LE(raw.length, 24);
    ch.writeUInt16LE(nm.length, 28); ch.writeUInt32LE(off, 42);
    locals.push(lh, nm, data); centrals.push(ch, nm);
    off += 30 + nm.length + data.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0); end.writeUInt16LE(files.length, 8); end.writeUInt16LE(files.length, 10); end.writeUInt32LE(cd.length, 12); end.writeUInt32LE(off, 16);
  return Buffer.concat([...locals, cd, end]);
}

describe('zip and CSV readers', () => {
  it('reads stored and deflated entries, also inside a folder', () => {
    const z = makeZip([['feed/stops.txt', 'stop_id,stop_name\n1,"Tse Addo"\n', true], ['routes.txt', 'route_id\nR1\n', false]]);
    const e = zipEntries(z, 'fixture.zip');
    expect(parseCsv(zipText(z, e, 'stops.txt')!)).toEqual([{ stop_id: '1', stop_name: 'Tse Addo' }]);
    expect(zipText(z, e, 'routes.txt')).toBe('route_id\nR1\n');
    expect(zipText(z, e, 'trips.txt')).toBeNull();
    expect(() => zipEntries(Buffer.from('not a zip at all, certainly not'), 'x.zip')).toThrow(/x.zip: not a zip/);
  });
  it('parses quotes, doubled quotes, CRLF and a BOM', () => {
    expect(parseCsv('\ufeffa,b\r\n"x, y","say ""hi"""\r\n3,\r\n')).toEqual([{ a: 'x, y', b: 'say "hi"' }, { a: '3', b: '' }]);
  });
});

describe('health deduplication rule', () => {
  it('treats similar names as one facility and different ones as two', () => {
    expect(sameFacility('Hôpital Général de Référence de Kinshasa', 'Hopital General de Reference Kinshasa')).toBe(true);
    expect(sameFacility('Kibera Health Centre', 'Kibera HC')).toBe(true);
    expect(sameFacility('Kibera Health Centre', 'Mathare Health Centre')).toBe(false);
  });
});

describe('prefix distance (typo in a partial word)', () => {
  it('compares a partial word with the closest prefix of a full one', async () => {
    const { prefixDistance } = await import('../../src/core/text/normalize.ts');
    expect(prefixDistance('nairbo', 'nairobi', 1)).toBe(1);
    expect(prefixDistance('nair', 'nairobi', 1)).toBe(0);
    expect(prefixDistance('kinsh', 'kinshasa', 1)).toBe(0);
    expect(prefixDistance('kimsh', 'kinshasa', 1)).toBe(1);
    expect(prefixDistance('abcde', 'kinshasa', 1)).toBe(2);
  });
});

describe('deletion hashes without strings', () => {
  it('reports exactly the hashes of the deletion variants', async () => {
    const { forEachDeleteHash } = await import('../../src/core/text/normalize.ts');
    for (const [w, d] of [['ouagadougou', 2], ['lagos', 1], ['ab', 2], ['nairobi', 2]] as [string, number][]) {
      const got = new Set<number>();
      forEachDeleteHash(w, d, (h) => got.add(h));
      expect(got).toEqual(new Set([...deletes(w, d)].map(hash32)));
    }
  });
});

describe('fast paths give the reference answers', () => {
  it('bit-parallel pattern distance equals the DP distance', async () => {
    const { setPattern, patternDistance } = await import('../../src/core/text/normalize.ts');
    let seed = 7;
    const rnd = () => { seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff; return seed / 0x80000000; };
    const word = (n: number, abc: string) => Array.from({ length: n }, () => abc[Math.floor(rnd() * abc.length)]).join('');
    for (let it = 0; it < 20000; it++) {
      const abc = it % 3 ? 'abcdé' : 'ab';
      const a = word(1 + Math.floor(rnd() * 32), abc);
      // Half near copies (edits and swaps), half unrelated words.
      let b = it % 2 ? a : word(Math.floor(rnd() * 34), abc);
      if (it % 2) for (let e = Math.floor(rnd() * 4); e > 0; e--) {
        const i = Math.floor(rnd() * Math.max(1, b.length - 1));
        const op = Math.floor(rnd() * 4);
        b = op === 0 ? b.slice(0, i) + 'x' + b.slice(i + 1) : op === 1 ? b.slice(0, i) + b.slice(i + 1) : op === 2 ? b.slice(0, i) + 'y' + b.slice(i) : b.slice(0, i) + (b[i + 1] ?? '') + b[i] + b.slice(i + 2);
      }
      setPattern(a);
      for (const max of [1, 2, 40]) expect(patternDistance(b, max), `${a} ${b} ${max}`).toBe(Math.min(editDistance(a, b, max), max + 1));
    }
    setPattern('x'.repeat(40)); // longer than 32: the DP fallback
    expect(patternDistance('x'.repeat(39), 2)).toBe(1);
  });
  it('the one-pass ASCII tokenizer matches the general (NFKD) path', () => {
    // A non-ASCII word appended sends the same text through the general path.
    for (const s of ["N'Djamena", "rock 'n' roll", "'abc'", "a''b", "St Mary's", 'Broad St', '`x`y', '', '  ', 'A--B__c', 'st st', 'Rd. 5 Ave', "x'", 'ST', "Jomo Kenyatta Int'l Airport"]) {
      expect([...tokens(s), 'e'], s).toEqual(tokens(`${s} é`));
    }
  });
  it('does not take Object.prototype keys for abbreviations', () => {
    expect(tokens('constructor toString __proto__')).toEqual(['constructor', 'tostring', 'proto']);
  });
  it('deleteHashes writes the same hashes as forEachDeleteHash, one-deletion variants first', async () => {
    const { forEachDeleteHash, deleteHashes } = await import('../../src/core/text/normalize.ts');
    const buf = new Uint32Array(600);
    for (const [w, d] of [['ouagadougou', 2], ['lagos', 1], ['ab', 2], ['nairobi', 2], ['x', 2]] as [string, number][]) {
      const want = new Set<number>();
      forEachDeleteHash(w, d, (h) => want.add(h));
      const n = deleteHashes(w, d, buf);
      expect(new Set(buf.subarray(0, n))).toEqual(want);
      expect(new Set(buf.subarray(0, Math.min(n, w.length + 1)))).toEqual(new Set([...deletes(w, Math.min(d, 1))].map(hash32)));
    }
  });
});
