// Reload without downtime (issue 3 §8): a rebuilt graph is swapped in by /admin/reload
// (the same code path as SIGHUP), requests in flight finish, and a corrupt new file is
// refused with the old graph still serving.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { join } from 'node:path';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { freshPglite, type TestDb } from '../helpers/db.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { buildRoadExtract } from '../../graph-build/roads.ts';
import { SHARED_DATA } from './helpers.ts';

const FROM = '11.5886,43.1456', TO = '11.7823,42.8846';
const ADMIN = { authorization: 'Bearer reload-admin' };

describe('graph reload', () => {
  let db: TestDb;
  let s: TestServer;
  let key: string;
  const built = () => join(db.dataDir, 'built');
  const build = (file = 'djibouti-2022-08-roads-secondary-plus.osm.pbf') => buildRoadExtract({ input: join(SHARED_DATA, file), name: 'djibouti', profiles: ['driving'], out: built() });
  // Other data under the same dataset name: a pool that never swaps keeps answering from Djibouti.
  const buildOther = () => build('tanzania-kagera-mini-2022-roads.osm.pbf');

  beforeAll(async () => {
    db = freshPglite();
    await build();
    s = await startTestServer(db, { ADMIN_TOKEN: 'reload-admin', WORKERS: '2' });
    key = await s.key({ plan: 'enterprise' });
  });
  afterAll(async () => {
    await s?.close();
    await db?.drop();
  });

  const route = () => s.get(`/api/v1/route?from=${FROM}&to=${TO}`, key);

  it('swaps in a rebuilt graph while requests are in flight', async () => {
    const before: any = await (await route()).json();
    expect(before.route.distance_m).toBeGreaterThan(30000);
    await build();
    const inFlight = Array.from({ length: 40 }, () => route());
    const reload = await fetch(`${s.url}/admin/reload`, { method: 'POST', headers: ADMIN });
    const more = Array.from({ length: 40 }, () => route());
    expect(reload.status).toBe(200);
    expect(((await reload.json()) as any).reload.loaded).toContain('djibouti');
    const statuses = await Promise.all([...inFlight, ...more].map(async (p) => (await p).status));
    expect(statuses.every((x) => x === 200)).toBe(true);
    // The swap is real: the same dataset rebuilt from other roads (Kagera, Tanzania) answers
    // differently, and rebuilt from Djibouti again answers as before.
    await buildOther();
    expect((await fetch(`${s.url}/admin/reload`, { method: 'POST', headers: ADMIN })).status).toBe(200);
    const other = await route();
    expect(other.status).toBe(400);
    expect(((await other.json()) as any).error.code).toBe('out_of_coverage');
    await build();
    expect((await fetch(`${s.url}/admin/reload`, { method: 'POST', headers: ADMIN })).status).toBe(200);
    const after: any = await (await route()).json();
    expect(after.route.distance_m).toBe(before.route.distance_m);
  });

  it('refuses a corrupt file and keeps serving the old graph', async () => {
    const manifest = JSON.parse(readFileSync(join(built(), 'djibouti', 'manifest.json'), 'utf8'));
    const file = join(built(), 'djibouti', manifest.files[0].file);
    const bytes = readFileSync(file);
    bytes[bytes.length >> 1] ^= 0xff; // one flipped byte in the payload: the CRC must catch it
    // Put in place as a build does (rename): rewriting a file in place would change the pages the
    // server has mapped, and truncating it under them kills the process (README, Operations).
    writeFileSync(`${file}.tmp`, bytes);
    renameSync(`${file}.tmp`, file);
    const reload = await fetch(`${s.url}/admin/reload`, { method: 'POST', headers: ADMIN });
    expect(reload.status).toBe(409);
    const body: any = await reload.json();
    expect(body.reload.refused[0].error).toMatch(/checksum/);
    expect(body.reload.refused[0].error).toContain(manifest.files[0].file);
    expect(body.reload.loaded).toContain('djibouti'); // the old copy stays
    expect((await route()).status).toBe(200);
  });

  it('needs the admin token', async () => {
    expect((await fetch(`${s.url}/admin/reload`, { method: 'POST' })).status).toBe(401);
  });
});
