// The traffic background jobs of one server: probes are map-matched into speed samples
// (processor.ts) and speeds published into the graphs' shared state (speeds.ts), one round at a
// time so the two never overlap on the database.
import type { WorkerPool } from '../pool/worker-pool.ts';
import type { Store } from '../store/index.ts';
import type { Config } from '../core/config.ts';
import { ProbeProcessor, logProcessError, canMatchProbes } from './processor.ts';
import { SpeedPublisher, logPublishError } from './speeds.ts';

export interface TrafficDeps { store: Store; pool: WorkerPool; config: Pick<Config, 'trafficProcessMs' | 'trafficPublishMs'> }

export interface TrafficService {
  processor: ProbeProcessor;
  publisher: SpeedPublisher;
  /** Runs one processing round then one publication (tests and benchmarks call it to skip the timers). */
  step(): Promise<void>;
  stop(): Promise<void>;
}

const services = new WeakMap<object, TrafficService>();
export const trafficService = (ctx: object) => services.get(ctx);

/** Starts the timers: probes are processed every TRAFFIC_PROCESS_MS, speeds published every TRAFFIC_PUBLISH_MS. */
export function startTraffic(ctx: TrafficDeps): TrafficService {
  const processor = new ProbeProcessor(ctx.store, ctx.pool);
  const publisher = new SpeedPublisher(ctx.store, ctx.pool);
  let running: Promise<unknown> = Promise.resolve();
  let stopped = false;
  const serial = (f: () => Promise<unknown>) => (running = running.then(f, f));
  // Elsewhere a round would take a window of pings it cannot match and query the database every
  // TRAFFIC_PROCESS_MS on the HTTP thread for nothing.
  const ready = () => canMatchProbes(ctx.pool);
  const process = () => serial(() => (ready() ? processor.tick().catch(logProcessError) : Promise.resolve()));
  const publish = () => serial(() => publisher.publish().catch(logPublishError));
  const t1 = setInterval(() => { if (!stopped) void process(); }, ctx.config.trafficProcessMs);
  const t2 = setInterval(() => { if (!stopped) void publish(); }, ctx.config.trafficPublishMs);
  t1.unref(); t2.unref();
  void publish();
  const svc: TrafficService = {
    processor, publisher,
    async step() { await serial(() => processor.tick()); await serial(() => publisher.publish()); },
    async stop() { stopped = true; clearInterval(t1); clearInterval(t2); await running.catch(() => {}); },
  };
  services.set(ctx, svc);
  return svc;
}
