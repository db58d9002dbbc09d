// The store: Postgres through `pg` only. DATABASE_URL picks a server; without it an
// embedded PGlite (data/db/) is served on a local socket so the same code runs.
export { Store } from './store.ts';
