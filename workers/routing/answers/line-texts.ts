// Lines written once as bytes into an answer built with JSON.stringify (the OSRM layer's bodies,
// the native guided route): the body holds placeholders, and its text is spliced with each line's
// bytes, so no coordinate is ever turned into a string and back.
import { JsonBytes } from './json-bytes.ts';
import { lineText, type E7Line } from './lines.ts';

/**
 * Collects lines while an OSRM-layer body is built; JSON.stringify then sees only placeholders. A route's
 * line is written once as bytes (digits straight from the stored integers, as answers/coords.ts does);
 * each step's line is a range of those bytes, and the answer is the skeleton's text with the
 * ranges between its pieces (JsonText), so no coordinate is ever turned into a string.
 */
export class LineTexts {
  private lines: (string | Uint8Array)[][] = [];
  /** A placeholder for the line's text in a body given to parts(). */
  ref(l: E7Line): string { this.lines.push(this.pieces(l)); return `\u0000L${this.lines.length - 1}`; }
  /** The body with every placeholder replaced by its line, as JsonText pieces. */
  parts(body: unknown): (string | Uint8Array)[] {
    const text = JSON.stringify(body), out: (string | Uint8Array)[] = [];
    let last = 0;
    for (let at = text.indexOf(MARK); at >= 0; at = text.indexOf(MARK, at)) {
      out.push(text.slice(last, at));
      const close = text.indexOf('"', at + MARK.length);
      for (const p of this.lines[Number(text.slice(at + MARK.length, close))]) out.push(p);
      at = last = close + 1;
    }
    out.push(text.slice(last));
    return out;
  }
  /** [[lng, lat], …] of the line, in pieces. */
  private pieces(l: E7Line): (string | Uint8Array)[] {
    const out: (string | Uint8Array)[] = [];
    const w = new JsonBytes(out).text('[');
    this.linePieces(l, w);
    w.text(']').cut();
    return out;
  }
  /** Writes the line's points, without the array's brackets (a one-point line: the point twice). */
  linePieces(l: E7Line, w: JsonBytes) {
    if (l.to === l.from) { this.point(l.c, l.from, w); w.text(','); this.point(l.c, l.from, w); return; }
    const t = lineText(l.c);
    w.bytes(t.bytes.subarray(t.at[l.from], t.at[l.to + 1] - 1));
  }
  /** Writes "[lng,lat]" of point k of line c. */
  point(c: ArrayLike<number>, k: number, w: JsonBytes) {
    const t = lineText(c);
    w.small(t.bytes, t.at[k], t.at[k + 1] - 1);
  }
}

/** How a placeholder of ref() reads in JSON text, before its number. */
const MARK = '"\\u0000L';

