// Webhooks survive kill -9 (issue 17): the real server as a child process, a loopback
// receiver here (WEBHOOK_ALLOW_PRIVATE=1) that fails 10% of deliveries on purpose, trip
// outcomes posted under load by several clients, the server kill -9'd mid-stream and
// restarted --kills times; at the end every trip outcome answered 200 must have reached the
// receiver (at least once; duplicates are counted, not an error).
//
//   npm run bench -- webhooks-crash [--kills 5] [--clients 6] [--pglite]
//
// Writes bench/results/webhooks-crash.json.
import http from 'node:http';
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO, startChild, freshDatabase, makeKey } from './crash.ts';
import { verifySignature } from '../src/webhooks/sign.ts';
import { numArg } from './lib/args.ts';

export interface WebhookCrashOptions { kills: number; clients: number; pglite: boolean; minLoadMs: number; maxLoadMs: number; failRate?: number; log?: (s: string) => void }

export interface WebhookCrashReport {
  database: 'postgres' | 'pglite'; kills: number; clients: number;
  acked: number; delivered: number; lost: number; duplicates: number; bad_signatures: number; refused_on_purpose: number;
  lost_examples: string[]; drain_ms: number; seconds: number;
}

export async function runWebhookCrash(o: WebhookCrashOptions): Promise<WebhookCrashReport> {
  const say = o.log ?? (() => {});
  const t0 = performance.now();
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-whcrash-'));
  let db: { url: string; drop(): Promise<void> } | null = null;
  const env: Record<string, string> = {
    DATA_DIR: dataDir, WEBHOOK_ALLOW_PRIVATE: '1', WEBHOOK_BACKOFF_SCALE: '0.002', WEBHOOK_TIMEOUT_MS: '2000',
  };
  if (!o.pglite) {
    if (!process.env.DATABASE_URL) throw new Error('DATABASE_URL is required (or pass --pglite)');
    db = await freshDatabase(process.env.DATABASE_URL, 'svc_whcrash');
    env.DATABASE_URL = db.url;
  } else env.DATABASE_URL = '';

  let secret = '';
  const received = new Map<string, number>(); // trip id → deliveries received (2xx answered)
  let badSig = 0, refused = 0;
  const rx = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      if (!verifySignature(secret, String(req.headers['svc-signature'] ?? ''), body)) { badSig++; res.writeHead(400).end(); return; }
      if (Math.random() < (o.failRate ?? 0.1)) { refused++; res.writeHead(500).end(); return; }
      const trip = JSON.parse(body).data.trip_outcome.trip_id as string;
      received.set(trip, (received.get(trip) ?? 0) + 1);
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((r) => rx.listen(0, '127.0.0.1', r));
  const rxUrl = `http://127.0.0.1:${(rx.address() as { port: number }).port}/hook`;

  const acked: string[] = [];
  let tripN = 0;
  try {
    const key = await makeKey(o.pglite ? null : db!.url, dataDir, 'whcrash');
    const auth = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    for (let k = 0; k <= o.kills; k++) {
      const child = await startChild(env);
      if (k === 0) {
        const r = await fetch(`${child.url}/api/v1/webhooks`, { method: 'POST', headers: auth, body: JSON.stringify({ url: rxUrl, events: ['trip_outcome.recorded'] }) });
        if (r.status !== 201) throw new Error(`webhook create ${r.status}: ${await r.text()}`);
        secret = (await r.json() as any).webhook.secret;
      }
      if (k === o.kills) {
        // Last start: no more load; wait until every acknowledged outcome has arrived.
        const td = performance.now();
        while (acked.some((t) => !received.has(t)) && performance.now() - td < 60_000) await new Promise((r) => setTimeout(r, 100));
        const drainMs = Math.round(performance.now() - td);
        child.proc.kill('SIGKILL');
        await child.exited;
        const lost = acked.filter((t) => !received.has(t));
        return {
          database: o.pglite ? 'pglite' : 'postgres', kills: o.kills, clients: o.clients,
          acked: acked.length, delivered: acked.length - lost.length, lost: lost.length,
          duplicates: [...received.values()].reduce((a, n) => a + n - 1, 0), bad_signatures: badSig, refused_on_purpose: refused,
          lost_examples: lost.slice(0, 10), drain_ms: drainMs, seconds: Math.round((performance.now() - t0) / 100) / 10,
        };
      }
      let stop = false, roundAcked = 0;
      const client = async () => {
        while (!stop) {
          const trip = `trip-${tripN++}`;
          try {
            const r = await fetch(`${child.url}/api/v1/integrations/logistics-partner/trip-outcome`, {
              method: 'POST', headers: auth, body: JSON.stringify({ trip_id: trip, outcome: 'delivered', pins: [{ lat: 6.45, lng: 3.39, found: true }] }),
            });
            await r.arrayBuffer();
            if (r.status === 200) { acked.push(trip); roundAcked++; }
          } catch {
            if (child.proc.exitCode !== null || child.proc.signalCode !== null) return;
          }
        }
      };
      const loops = Array.from({ length: o.clients }, client);
      const loadMs = o.minLoadMs + Math.random() * (o.maxLoadMs - o.minLoadMs);
      await new Promise((r) => setTimeout(r, loadMs));
      child.proc.kill('SIGKILL');
      await child.exited;
      stop = true;
      await Promise.all(loops);
      say(`round ${k}: killed after ${Math.round(loadMs)} ms, ${roundAcked} outcomes acked, ${received.size} delivered so far`);
    }
    throw new Error('unreachable');
  } finally {
    rx.closeAllConnections();
    rx.close();
    await db?.drop().catch(() => {});
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function main(args: string[]) {
  const pglite = args.includes('--pglite');
  const report = await runWebhookCrash({
    kills: numArg(args, 'kills', 5), clients: numArg(args, 'clients', 6), pglite, minLoadMs: 500, maxLoadMs: 2000,
    log: (s) => process.stderr.write(s + '\n'),
  });
  const out = {
    bench: 'webhooks-crash', when: new Date().toISOString(),
    machine: 'shared 2-core box (other engineers running tests at the same time); receiver, load and server share the cores',
    command: `npm run bench -- webhooks-crash${args.length ? ' ' + args.join(' ') : ''}`,
    ...report,
  };
  const json = JSON.stringify(out, null, 2);
  process.stdout.write(json + '\n');
  const dir = join(REPO, 'bench', 'results');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, pglite ? 'webhooks-crash-pglite.json' : 'webhooks-crash.json'), json + '\n');
  if (report.lost > 0) process.exitCode = 1;
}
