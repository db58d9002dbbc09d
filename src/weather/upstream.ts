// The weather upstream (any server speaking Open-Meteo's /v1/forecast), behind a cache of one
// entry per ~0.1° cell, stale-while-revalidate, a per-call timeout and a circuit breaker, so a
// slow or failing upstream costs our callers at most one timeout and never a pile-up.
import { Unavailable } from '../core/errors.ts';
import { HOURLY, parseUpstream, type Upstream } from './forecast.ts';

export interface UpstreamOptions {
  /** Base address, e.g. https://api.open-meteo.com (null: no upstream configured). */
  url: string | null;
  timeoutMs: number;
  /** An entry younger than this is served without asking the upstream. */
  freshMs?: number;
  /** An older entry, up to this age, is served at once (marked stale) while a refresh runs. */
  staleMs?: number;
  /** Consecutive failures that open the breaker, and how long it stays open. */
  breakerFailures?: number;
  breakerOpenMs?: number;
  maxCells?: number;
}

export interface Answer { data: Upstream; fetchedAt: number; stale: boolean }

/** Degrees per cache cell: ~11 km, finer than the upstream's own grid in most of Africa. */
export const CELL_DEG = 0.1;
const cellOf = (v: number) => Math.round(v / CELL_DEG) * CELL_DEG;
/** Retry-After when one call failed and the breaker is still closed. */
const RETRY_S = 5;
/** Forecast days fetched per cell; a request for fewer days slices the same entry. */
export const FETCH_DAYS = 7;

export class WeatherUpstream {
  now = () => Date.now();
  /** True once the upstream has answered since start: the capability is on only then. */
  answered = false;
  private cache = new Map<string, { data: Upstream; fetchedAt: number }>();
  private inflight = new Map<string, Promise<Upstream>>();
  private failures = 0;
  private openUntil = 0;
  private readonly o: Required<UpstreamOptions>;

  constructor(o: UpstreamOptions) {
    this.o = { freshMs: 3600_000, staleMs: 24 * 3600_000, breakerFailures: 5, breakerOpenMs: 30_000, maxCells: 20_000, ...o };
  }

  get configured() { return this.o.url !== null; }

  async get(lat: number, lng: number): Promise<Answer> {
    if (!this.o.url) throw unavailable('No weather upstream is configured on this server (WEATHER_URL).', 3600);
    const clat = cellOf(lat), clng = cellOf(lng);
    const key = `${clat.toFixed(1)},${clng.toFixed(1)}`;
    const hit = this.cache.get(key);
    const age = hit ? this.now() - hit.fetchedAt : Infinity;
    if (hit && age < this.o.freshMs) return { data: hit.data, fetchedAt: hit.fetchedAt, stale: false };
    if (hit && age < this.o.staleMs) {
      this.refresh(key, clat, clng).catch(() => {}); // failures are counted by the breaker
      return { data: hit.data, fetchedAt: hit.fetchedAt, stale: true };
    }
    const data = await this.refresh(key, clat, clng);
    return { data, fetchedAt: this.cache.get(key)!.fetchedAt, stale: false };
  }

  /** One upstream call per cell at a time; callers of the same cell share it. */
  private refresh(key: string, lat: number, lng: number): Promise<Upstream> {
    const running = this.inflight.get(key);
    if (running) return running;
    const now = this.now();
    if (now < this.openUntil) {
      return Promise.reject(unavailable('The weather upstream is failing; calls to it are paused.', Math.ceil((this.openUntil - now) / 1000)));
    }
    const p = this.fetchCell(lat, lng).then(
      (data) => {
        this.failures = 0;
        this.answered = true;
        this.cache.delete(key); // re-insert: Map order is the eviction order
        this.cache.set(key, { data, fetchedAt: this.now() });
        if (this.cache.size > this.o.maxCells) this.cache.delete(this.cache.keys().next().value!);
        return data;
      },
      (e: Error) => {
        if (++this.failures >= this.o.breakerFailures) this.openUntil = this.now() + this.o.breakerOpenMs;
        const open = this.openUntil - this.now();
        throw unavailable(`The weather upstream did not answer usably: ${e.message}`, open > 0 ? Math.ceil(open / 1000) : RETRY_S);
      },
    ).finally(() => this.inflight.delete(key));
    this.inflight.set(key, p);
    return p;
  }

  private async fetchCell(lat: number, lng: number): Promise<Upstream> {
    const q = new URLSearchParams({
      latitude: lat.toFixed(1), longitude: lng.toFixed(1), hourly: HOURLY.join(','),
      forecast_days: String(FETCH_DAYS), timezone: 'auto',
    });
    let res: Response;
    try {
      res = await fetch(`${this.o.url}/v1/forecast?${q}`, { signal: AbortSignal.timeout(this.o.timeoutMs) });
    } catch (e) {
      const err = e as Error;
      throw new Error(err.name === 'TimeoutError' ? `no answer within ${this.o.timeoutMs} ms` : err.message);
    }
    if (!res.ok) {
      await res.body?.cancel();
      throw new Error(`HTTP ${res.status}`);
    }
    let body: unknown;
    try { body = await res.json(); } catch { throw new Error('the body is not JSON'); }
    return parseUpstream(body);
  }
}

function unavailable(message: string, retryAfter: number): Unavailable {
  return new Unavailable('weather_unavailable', message, retryAfter);
}
