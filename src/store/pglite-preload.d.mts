/** PGlite.create's options for precompiled modules and the file-system bundle (src/store/pglite-preload.mjs). */
export function pglitePreload(): Promise<{ pgliteWasmModule: WebAssembly.Module; initdbWasmModule: WebAssembly.Module; fsBundle: Blob }>;
