// Requests refused to a known key (403 scope, 429 quota or burst), for the dashboard's
// "refused recently" table. Recorded in a bounded in-memory ring on the hot path and
// written to key_refusals in one statement per flush; a flood of refusals keeps only the
// newest RING entries per interval and counts the rest as dropped.
import type { Store } from '../store/index.ts';
import { insertRefusals, pruneRefusals, type RefusalRow } from '../store/refusals.ts';
import type { KeyInfo } from './key-info.ts';
import { log } from '../core/log.ts';

const RING = 2000;
/** Rows older than this are deleted now and then: the table is for "recently". */
const KEEP_DAYS = 30;

type Refusal = RefusalRow;

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
    this.flushing = insertRefusals(this.store, batch)
      .then(async () => {
        if (prune) await pruneRefusals(this.store, KEEP_DAYS);
      })
      .catch((e) => log.error('refusals_flush', { error: String(e) }))
      .finally(() => { this.flushing = null; });
    return this.flushing;
  }
}
