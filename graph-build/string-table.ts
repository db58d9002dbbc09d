// Strings as one UTF-8 byte section plus offsets (string i spans off[i]..off[i + 1]), the layout
// the workers read names, codes and index tokens from.
const enc = new TextEncoder();

export function stringTable(strs: string[]): { bytes: Uint8Array; off: Uint32Array } {
  const parts = strs.map((s) => enc.encode(s));
  const off = new Uint32Array(parts.length + 1);
  let n = 0;
  for (let i = 0; i < parts.length; i++) { off[i] = n; n += parts[i].length; }
  off[parts.length] = n;
  const bytes = new Uint8Array(n);
  for (let i = 0; i < parts.length; i++) bytes.set(parts[i], off[i]);
  return { bytes, off };
}
