// Sends queued webhook deliveries. A delivery is claimed with a lease (so a second server, or
// this one after a crash, takes it over only when the lease runs out), POSTed with its
// signature, and its attempt recorded; a non-2xx answer or an error schedules the next try on
// an exponential schedule of about 24 hours, after which the delivery is marked failed (and
// can still be replayed). Delivery is at least once: a crash between the receiver's 2xx and
// our commit sends the event again, with the same event id, for the receiver to deduplicate.
import http from 'node:http';
import https from 'node:https';
import type { Store } from '../store/index.ts';
import { claimDeliveries, nextDueMs, settleDelivery, type ClaimedRow } from '../store/webhooks.ts';
import { log } from '../core/log.ts';
import { SIGNATURE_HEADER, signatureHeader } from './sign.ts';
import { publicOnlyLookup } from '../net/public-address.ts';

/** Seconds to wait after attempt n (1-based) fails: 30 s doubling to 8 h, about 24 h in all. */
export const RETRY_SCHEDULE_S = [30, 60, 120, 240, 480, 960, 1920, 3600, 7200, 14400, 28800, 28800];
export const MAX_ATTEMPTS = RETRY_SCHEDULE_S.length + 1;
const BATCH = 16;
const RESPONSE_KEEP = 512;

export interface DispatcherOptions {
  allowPrivate: boolean;
  /** Multiplies RETRY_SCHEDULE_S (tests: a small fraction). */
  backoffScale: number;
  timeoutMs: number;
  pollMs?: number;
}

type Claimed = ClaimedRow;

export interface AttemptResult { status: number | null; error: string | null; ms: number; response: string | null }

export class Dispatcher {
  private timer: NodeJS.Timeout | null = null;
  private soon: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  sent = 0;
  failed = 0;

  constructor(private store: Store, private o: DispatcherOptions) {}

  /** Polls every pollMs; the first poll after firstAfterMs (a write that queues a delivery wakes it at once). */
  start(firstAfterMs = 0) {
    this.timer = setInterval(() => this.wake(), this.o.pollMs ?? 1000);
    this.timer.unref();
    if (firstAfterMs > 0) this.soon = setTimeout(() => this.wake(), firstAfterMs).unref();
    else this.wake();
  }

  async stop() {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    if (this.soon) clearTimeout(this.soon);
    await this.running;
  }

  /** Look for due deliveries now (called after a write queued some). */
  wake() {
    if (this.stopped) return;
    if (this.running) { this.again = true; return; }
    this.running = this.loop()
      .catch((e) => log.error('webhook_dispatch', { error: String(e) }))
      .finally(() => {
        this.running = null;
        if (this.again) { this.again = false; this.wake(); }
      });
  }

  private async loop() {
    for (;;) {
      if (this.stopped) return;
      const batch = await this.claim();
      if (!batch.length) break;
      await Promise.all(batch.map((d) => this.deliver(d)));
      if (batch.length < BATCH) break;
    }
    // A retry due before the next poll: wake for it.
    const ms = await nextDueMs(this.store);
    if (ms !== null && ms < (this.o.pollMs ?? 1000) && !this.stopped) {
      if (this.soon) clearTimeout(this.soon);
      this.soon = setTimeout(() => this.wake(), Math.max(5, ms + 5));
      this.soon.unref();
    }
  }

  private async claim(): Promise<Claimed[]> {
    const lease = `${Math.ceil(this.o.timeoutMs / 1000) + 5} seconds`;
    const out: Claimed[] = [];
    for (const row of await claimDeliveries(this.store, lease, BATCH)) {
      if (row.active) out.push(row);
      else await this.settle(row, { status: null, error: 'endpoint disabled or deleted', ms: 0, response: null }, true);
    }
    return out;
  }

  private async deliver(d: Claimed) {
    const res = await this.post(d);
    await this.settle(d, res, false).catch((e) => log.error('webhook_settle', { delivery: d.id, error: String(e) }));
  }

  /** Record the attempt and decide: delivered, retry later, or give up. */
  private async settle(d: Claimed, r: AttemptResult, giveUp: boolean) {
    const ok = r.status !== null && r.status >= 200 && r.status < 300;
    const last = giveUp || d.attempts >= MAX_ATTEMPTS;
    const waitS = RETRY_SCHEDULE_S[Math.min(d.attempts, RETRY_SCHEDULE_S.length) - 1] * this.o.backoffScale;
    const jitter = 1 + Math.random() * 0.1;
    await this.store.tx((c) => settleDelivery(c, { id: d.id, attempt: d.attempts }, r, { delivered: ok, failed: !ok && last, retryS: waitS * jitter }));
    if (ok) this.sent++;
    else if (last) this.failed++;
  }

  private post(d: Claimed): Promise<AttemptResult> {
    const t0 = performance.now();
    const done = (status: number | null, error: string | null, response: string | null): AttemptResult =>
      ({ status, error, response, ms: performance.now() - t0 });
    return new Promise((resolve) => {
      let u: URL;
      try { u = new URL(d.url); } catch { return resolve(done(null, 'invalid url', null)); }
      const lib = u.protocol === 'https:' ? https : http;
      const body = Buffer.from(d.body);
      const req = lib.request(u, {
        method: 'POST',
        timeout: this.o.timeoutMs,
        lookup: this.o.allowPrivate ? undefined : publicOnlyLookup,
        headers: {
          'content-type': 'application/json',
          'content-length': String(body.length),
          'user-agent': 'svc-webhooks/1',
          [SIGNATURE_HEADER]: signatureHeader(d.secret, d.body),
          'Svc-Event-Id': d.event_id,
          'Svc-Event-Type': d.type,
          'Svc-Delivery-Attempt': String(d.attempts),
        },
      }, (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => { if (size < RESPONSE_KEEP) { chunks.push(c); size += c.length; } });
        res.on('end', () => resolve(done(res.statusCode ?? null, null, Buffer.concat(chunks).subarray(0, RESPONSE_KEEP).toString('utf8'))));
        res.on('error', (e) => resolve(done(res.statusCode ?? null, e.message, null)));
      });
      // A deadline on the whole exchange, not only on socket idleness.
      const deadline = setTimeout(() => req.destroy(new Error(`timed out after ${this.o.timeoutMs} ms`)), this.o.timeoutMs);
      req.on('timeout', () => req.destroy(new Error(`timed out after ${this.o.timeoutMs} ms`)));
      req.on('error', (e) => resolve(done(null, e.message.slice(0, 300), null)));
      req.on('close', () => clearTimeout(deadline));
      req.end(body);
    });
  }
}
