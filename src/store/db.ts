// What the aggregate modules of src/store take: a pooled query (the Store) or a query inside a
// transaction (a client from store.tx()); both answer (text, values). And whose rows a call may
// touch: every logistics statement filters on the project and on the sandbox of test keys.
import type pg from 'pg';

export type Db = { query: (text: string, values?: unknown[]) => Promise<pg.QueryResult<any>> };

export interface Tenant { project: string; sandbox: boolean }
