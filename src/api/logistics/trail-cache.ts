// Finished trail responses, kept per (project, sandbox, device, query) and valid only
// while the device's version (stored-ping count and device-row creation time, pings.ts) is
// unchanged. Pings are insert-only until a device row is deleted with all its pings, so an
// equal version means the very same pings: a dashboard polling an idle vehicle's 10,000-point
// trail costs one primary-key lookup instead of a 1 MB read. Checked against the
// database on every request, so it is never stale, even with several server processes.

interface Entry { version: string; body: Buffer }

export class TrailCache {
  private map = new Map<string, Entry>();
  private bytes = 0;

  constructor(private maxBytes = 64 << 20, private maxEntry = 4 << 20) {}

  get(key: string, version: string): Buffer | null {
    const e = this.map.get(key);
    if (!e) return null;
    if (e.version !== version) {
      this.delete(key, e);
      return null;
    }
    // Re-insert: Map order is the LRU order.
    this.map.delete(key);
    this.map.set(key, e);
    return e.body;
  }

  set(key: string, version: string, body: Buffer) {
    if (body.length > this.maxEntry) return;
    const old = this.map.get(key);
    if (old) this.delete(key, old);
    this.map.set(key, { version, body });
    this.bytes += body.length;
    for (const [k, e] of this.map) {
      if (this.bytes <= this.maxBytes) break;
      this.delete(k, e);
    }
  }

  private delete(key: string, e: Entry) {
    this.map.delete(key);
    this.bytes -= e.body.length;
  }
}
