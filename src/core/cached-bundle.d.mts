/** The path of the bundle of `entry` (relative to `root`), named `name`.mjs, built if stale (src/core/cached-bundle.mjs). */
export function cachedBundle(o: { root: string; entry: string; name: string }): Promise<{ file: string; rebuilt: boolean }>;
