// Tag look-ups as OSRM's profiles do them (profiles/lib/tags.lua, lib/access.lua). A key that is
// absent reads as undefined; an empty value is still a value, as in Lua.
import type { Tags } from '../types.ts';

/** What the way handlers learn along the way (the `data` table of way_handlers.lua). */
export interface WayData {
  highway?: string;
  bridge?: string;
  route?: string;
  oneway?: string;
  isForwardOneway?: boolean;
  isReverseOneway?: boolean;
  forwardAccess?: string;
  backwardAccess?: string;
  sideroad?: string;
}

/** `key:forward` / `key:backward`, else `key`, which a oneway gives only to its open direction. */
export function forwardBackwardByKey(t: Tags, data: WayData, key: string): [string | undefined, string | undefined] {
  let forward = t[key + ':forward'];
  let backward = t[key + ':backward'];
  if (forward === undefined || backward === undefined) {
    const common = t[key];
    if (data.isForwardOneway) forward = forward ?? common;
    else if (data.isReverseOneway) backward = backward ?? common;
    else { forward = forward ?? common; backward = backward ?? common; }
  }
  return [forward, backward];
}

/** Each key list's `key:forward` and `key:backward` spellings, made once per list rather than per way. */
const directed = new WeakMap<readonly string[], { forward: string[]; backward: string[] }>();
function directedKeys(keys: readonly string[]) {
  let d = directed.get(keys);
  if (!d) directed.set(keys, (d = { forward: keys.map((k) => k + ':forward'), backward: keys.map((k) => k + ':backward') }));
  return d;
}

/** The first of `keys` (each as `key:forward|backward` then `key`) that is set, per direction. */
export function forwardBackwardBySet(t: Tags, keys: readonly string[]): [string | undefined, string | undefined] {
  const d = directedKeys(keys);
  let forward: string | undefined, backward: string | undefined;
  for (let i = 0; i < keys.length; i++) {
    if (forward === undefined) forward = t[d.forward[i]];
    if (backward === undefined) backward = t[d.backward[i]];
    if (forward === undefined || backward === undefined) {
      const common = t[keys[i]];
      forward = forward ?? common;
      backward = backward ?? common;
    }
    if (forward !== undefined && backward !== undefined) break;
  }
  return [forward, backward];
}

/** `prefix:key` for the first key of `seq` that is set (e.g. oneway:motorcar, oneway:motor_vehicle…). */
export function valueByPrefixedSequence(t: Tags, seq: readonly string[], prefix: string): string | undefined {
  for (const key of seq) { const v = t[prefix + ':' + key]; if (v !== undefined) return v; }
  return undefined;
}

/** The most specific access tag that is set (lib/access.lua find_access_tag). */
export function findAccessTag(t: Tags, hierarchy: readonly string[]): string | undefined {
  for (const k of hierarchy) { const v = t[k]; if (v !== undefined) return v; }
  return undefined;
}

/** "aaa;bbb; ccc;  d" → "aaa; bbb; ccc; d" (OSRM's canonicalizeStringList). */
export function canonicalizeStringList(s: string, delim: string): string {
  return s.split(delim).join(delim + ' ').replace(/(\s)\s+/g, '$1');
}
