// The C allocator's setting the server runs with (Linux, glibc).
//
// ArrayBuffers live in malloc'd memory, each worker thread in its own malloc arena. glibc serves a
// block of 128 KB or more with its own mmap, but once such a block is freed it raises that
// threshold to the block's size (up to 32 MB): the next large blocks come from the thread's arena,
// and freed arena memory stays resident. An isochrone on the 4M-node graph (its sites, its
// triangulation) left ~20 MB in its thread that way, after V8 had freed it. A fixed threshold keeps
// large blocks in their own mappings, given back when freed.

/** The environment `npm start` runs the server with (package.json; the benches start it alike). */
export const MALLOC_ENV = { MALLOC_MMAP_THRESHOLD_: '131072' } as const;

/** The threshold this process runs with, for the start-up log: null when glibc's adaptive default. */
export const mallocThreshold = (): string | null => process.env.MALLOC_MMAP_THRESHOLD_ ?? null;
