// Prometheus text exposition of request counts, latency, pool depth and limit rejections.
const BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

export class Metrics {
  /** route → status → count (nested, so counting builds no key string per request). */
  private requests = new Map<string, Map<number, number>>();
  private hist = new Array(BUCKETS.length + 1).fill(0);
  private sum = 0;
  private count = 0;
  inFlight = 0;

  observe(route: string, status: number, seconds: number) {
    let byStatus = this.requests.get(route);
    if (!byStatus) this.requests.set(route, (byStatus = new Map()));
    byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
    let i = 0;
    while (i < BUCKETS.length && seconds > BUCKETS[i]) i++;
    this.hist[i]++;
    this.sum += seconds;
    this.count++;
  }

  render(g: { queue: number; workers: number; rejections: Record<string, number> }): string {
    const esc = (s: string) => s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
    const out: string[] = [
      '# HELP svc_requests_total HTTP requests by route pattern and status.',
      '# TYPE svc_requests_total counter',
    ];
    for (const [route, byStatus] of this.requests) {
      for (const [status, n] of byStatus) out.push(`svc_requests_total{route="${esc(route)}",status="${status}"} ${n}`);
    }
    out.push('# HELP svc_request_duration_seconds Time from request to response.', '# TYPE svc_request_duration_seconds histogram');
    let cum = 0;
    BUCKETS.forEach((b, i) => {
      cum += this.hist[i];
      out.push(`svc_request_duration_seconds_bucket{le="${b}"} ${cum}`);
    });
    cum += this.hist[BUCKETS.length];
    out.push(`svc_request_duration_seconds_bucket{le="+Inf"} ${cum}`);
    out.push(`svc_request_duration_seconds_sum ${this.sum}`, `svc_request_duration_seconds_count ${this.count}`);
    out.push('# HELP svc_pool_queue_depth Tasks waiting for a worker.', '# TYPE svc_pool_queue_depth gauge', `svc_pool_queue_depth ${g.queue}`);
    out.push('# HELP svc_pool_workers Worker threads.', '# TYPE svc_pool_workers gauge', `svc_pool_workers ${g.workers}`);
    out.push('# HELP svc_in_flight_requests Requests being answered.', '# TYPE svc_in_flight_requests gauge', `svc_in_flight_requests ${this.inFlight}`);
    out.push('# HELP svc_limit_rejections_total Requests refused by quota or burst limit.', '# TYPE svc_limit_rejections_total counter');
    for (const [reason, n] of Object.entries(g.rejections)) out.push(`svc_limit_rejections_total{reason="${reason}"} ${n}`);
    return out.join('\n') + '\n';
  }
}
