// A node's life as the balancer sees it: serving, draining (SIGTERM received: no new connections,
// requests on open keep-alive connections still served but each answer closes its connection),
// closed (the grace is over: whatever still arrives is refused with 503 so the balancer retries it).
//
// Why a grace at all: a proxy such as nginx keeps idle upstream connections open and may send a
// request on one at any moment. If the node closed an idle connection itself, a request crossing
// that close in flight would fail, and nginx does not retry a POST it has already sent. So during
// the grace the node never closes an idle connection: it answers whatever comes with
// `Connection: close`, and the proxy closes the idle ones when its upstream keep-alive timeout
// (shorter than the grace) runs out. With no proxy in front (tests, one process) the grace is 0.

export type Phase = 'serving' | 'draining' | 'closed';

export class Lifecycle {
  phase: Phase = 'serving';
  /** When draining started (ms since epoch), for the readiness answer. */
  since = 0;

  get draining(): boolean {
    return this.phase !== 'serving';
  }

  startDrain(now = Date.now()) {
    if (this.phase === 'serving') {
      this.phase = 'draining';
      this.since = now;
    }
  }

  close() {
    this.phase = 'closed';
  }
}

/** Resolves after `graceMs`, or at once when it is 0 (no proxy keeps connections to this node). */
export const graceOver = (graceMs: number) =>
  graceMs > 0 ? new Promise<void>((r) => setTimeout(r, graceMs)) : Promise.resolve();
