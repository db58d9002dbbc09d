// Requests refused to a known key (403 scope, 429 quota or burst), for the dashboard's
// "refused recently" table. Recorded in a bounded in-memory ring on the hot path and
// written to key_refusals in one statement per flush; a flood of refusals keeps only the
// newest RING entries per interval and counts the rest as dropped.
import type { Store } from '../store/index.ts';
import type { KeyInfo } from './key-info.ts';
import { log } from '../core/log.ts';

const RING = 2000;
/** Rows older than this are deleted now and then: the table is for "recently". */
const KEEP_DAYS = 30;

interface Refusal { key_id: string; project: string; at: Date; status: number; code: string; route: string }

export class Refusals {
  private ring: Refusal[] = [];
  private head = 0;
  dropped = 0;
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> | null = null;
  private flushes = 0;

  constructor(private store: Store, private flushMs = 1000) {}

  start() {
    this.timer = setInterval(() => void this.flush(), this.flushMs);
    this.timer.unref();
  }

  async stop() {
    if (this.timer) clearInterval(this.timer);
    await this.flush();
  }

  record(key: KeyInfo, status: number, code: string, route: string) {
    const r = { key_id: key.id, project: key.project, at: new Date(), status, code, route };
    if (this.ring.length < RING) this.ring.push(r);
    else {
      this.ring[this.head] = r;
      this.head = (this.head + 1) % RING;
      this.dropped++;
    }
  }

  flush(): Promise<void> {
    if (this.flushing) return this.flushing.then(() => this.flush());
    if (!this.ring.length) return Promise.resolve();
    const batch = this.ring;
    this.ring = [];
    this.head = 0;
    const prune = ++this.flushes % 600 === 0;
    this.flushing = this.store
      .query(
        `INSERT INTO key_refusals (key_id, project_id, at, status, code, route)
         SELECT * FROM unnest($1::text[], $2::text[], $3::timestamptz[], $4::int[], $5::text[], $6::text[])`,
        [batch.map((b) => b.key_id), batch.map((b) => b.project), batch.map((b) => b.at), batch.map((b) => b.status), batch.map((b) => b.code), batch.map((b) => b.route)],
      )
      .then(async () => {
        if (prune) await this.store.query(`DELETE FROM key_refusals WHERE at < now() - interval '${KEEP_DAYS} days'`);
      })
      .catch((e) => log.error('refusals_flush', { error: String(e) }))
      .finally(() => { this.flushing = null; });
    return this.flushing;
  }
}
