// graph-build's one public entry for the server: build the default datasets that are missing
// or stale before serving. Everything else in graph-build is reached through cli.ts.
export { ensureDefaultData, readSources, type Sources } from './defaults.ts';
