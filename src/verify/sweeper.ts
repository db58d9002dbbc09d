// The background evaluator: every VERIFY_SWEEP_MS it evaluates the pending address verifications
// that may have moved (pings received since their last evaluation, or a window that ended), on
// every server at once if there are several — evaluation is idempotent (evaluation.ts), so two
// servers evaluating the same row record its outcome and webhook once. State lives in the
// database: after a restart the first sweep picks everything up again.
import type { Store } from '../store/index.ts';
import type { Dispatcher } from '../webhooks/dispatcher.ts';
import { log } from '../core/log.ts';
import { sweep } from './evaluation.ts';

export class Verifier {
  private timer: NodeJS.Timeout | null = null;
  private first: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopped = false;
  completed = 0;

  constructor(private store: Store, private webhooks: Dispatcher | undefined, private everyMs: number) {}

  /** Sweeps every everyMs; the first sweep after firstAfterMs. */
  start(firstAfterMs = 0) {
    this.timer = setInterval(() => this.run(), this.everyMs);
    this.timer.unref();
    if (firstAfterMs > 0) this.first = setTimeout(() => void this.run(), firstAfterMs).unref();
    else void this.run();
  }

  /** One sweep now (skipped when one is still running). */
  run(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    this.running ??= sweep(this.store)
      .then((n) => {
        this.completed += n;
        if (n) this.webhooks?.wake();
      })
      .catch((e) => log.error('verify_sweep', { error: String(e) }))
      .finally(() => { this.running = null; });
    return this.running;
  }

  async stop() {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    if (this.first) clearTimeout(this.first);
    await this.running;
  }
}
