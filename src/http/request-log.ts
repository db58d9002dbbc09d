// One JSON line per request (method, route, status, ms, key id and project — never
// the key itself), buffered and written in one syscall every 100 ms so logging
// costs the hot path a string concat, not a write.
import type { KeyInfo } from './types.ts';

export class RequestLog {
  private buf: string[] = [];
  private timer: NodeJS.Timeout | null = null;

  constructor(private enabled: boolean) {}

  add(method: string, url: string, route: string, status: number, ms: number, key: KeyInfo | null) {
    if (!this.enabled) return;
    this.buf.push(JSON.stringify({
      // a trip link's token is a bearer credential in its path: never logged
      t: new Date().toISOString(), level: 'info', msg: 'request', method, path: url.includes('svctrip_') ? url.replace(/svctrip_[^/?&]*/g, 'svctrip_…') : url, route, status,
      ms: Math.round(ms * 1000) / 1000, key_id: key?.id ?? null, project: key?.project ?? null,
    }));
    if (this.buf.length >= 1000) this.flush();
    else if (!this.timer) {
      this.timer = setTimeout(() => this.flush(), 100);
      this.timer.unref();
    }
  }

  flush() {
    if (this.timer) { clearTimeout(this.timer); this.timer = null; }
    if (!this.buf.length) return;
    process.stdout.write(this.buf.join('\n') + '\n');
    this.buf = [];
  }
}
