// Name comparison as OSRM's guidance makes it (util/guidance/name_announcements.hpp,
// extractor/intersection/have_identical_names.cpp): would moving from one road onto the other
// need the new name announced? Two roads "have identical names" when neither way needs it.
export interface RoadName { name: string; ref: string; pronunciation: string; exits: string; destinations: string }

export const emptyName = (n: RoadName) => !n.name && !n.ref && !n.pronunciation && !n.exits && !n.destinations;

function longestCommonSubstring(a: string, b: string): string {
  if (!a || !b) return '';
  let prev = new Uint32Array(b.length), cur = new Uint32Array(b.length);
  let best = 0, bestPos = 0;
  for (let i = 0; i < a.length; i++) {
    for (let j = 0; j < b.length; j++) {
      if (a[i] === b[j]) {
        cur[j] = j === 0 ? 1 : prev[j - 1] + 1;
        if (cur[j] > best) { best = cur[j]; bestPos = i + 1; }
      }
    }
    [prev, cur] = [cur, prev];
  }
  return a.substring(bestPos - best, bestPos);
}

function decompose(a: string, b: string): [string, string, string, string] {
  const lcs = longestCommonSubstring(a, b);
  const trim = (s: string) => {
    const l = s.toLowerCase();
    let f = 0, b = l.length - 1;
    while (f < l.length && l[f] === ' ') f++;
    if (f === l.length) return l;
    while (l[b] === ' ') b--;
    return l.slice(f, b + 1);
  };
  if (!lcs) return [trim(a), trim(b), '', ''];
  const ap = a.indexOf(lcs), bp = b.indexOf(lcs);
  return [trim(a.slice(0, ap)), trim(a.slice(ap + lcs.length)), trim(b.slice(0, bp)), trim(b.slice(bp + lcs.length))];
}

export function requiresNameAnnounced(from: RoadName, to: RoadName, suffixes: ReadonlySet<string>): boolean {
  if (!from.name && !from.ref && !(!to.name && !to.ref)) return true;
  const namesEmpty = !from.name && !to.name;
  const contained = from.name.startsWith(to.name) || to.name.startsWith(from.name);
  const [fp, fs, sp, ss] = decompose(from.name, to.name);
  const ok = (s: string) => !s || suffixes.has(s);
  const suffixChange = ok(fp) && ok(fs) && ok(sp) && ok(ss);
  const namesEqual = from.name === to.name || contained || suffixChange;
  const nameRemoved = !!from.name && !to.name;
  const refsEmpty = !from.ref && !to.ref;
  const refContained = !from.ref || !to.ref || from.ref.includes(to.ref) || to.ref.includes(from.ref);
  const refRemoved = !!from.ref && !to.ref;
  const obvious = (namesEmpty && refsEmpty) || (namesEqual && refContained) || (namesEqual && refsEmpty) || (refContained && nameRemoved)
    || (namesEqual && refRemoved) || suffixChange;
  const needs = (!from.name && !!from.ref && !!to.name && !to.ref) || (!!from.name && !from.ref && !to.name && !!to.ref) || (namesEmpty && !refContained);
  const pronunciationChanges = from.pronunciation !== to.pronunciation;
  const exitsChange = from.exits !== to.exits;
  const loosesExit = namesEqual && !!from.exits && !to.exits;
  return !obvious || needs || pronunciationChanges || (exitsChange && !loosesExit);
}

/** HaveIdenticalNames: both named (any of the string fields) and no announcement either way. */
export function haveIdenticalNames(a: RoadName, b: RoadName, suffixes: ReadonlySet<string>): boolean {
  return !emptyName(a) && !emptyName(b) && !requiresNameAnnounced(a, b, suffixes) && !requiresNameAnnounced(b, a, suffixes);
}
