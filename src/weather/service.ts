// The server's one weather upstream, made on first use from its configuration.
import type { Config } from '../core/config.ts';
import { WeatherUpstream } from './upstream.ts';

export interface WeatherDeps { config: Pick<Config, 'weatherUrl' | 'weatherTimeoutMs'> }

const services = new WeakMap<WeatherDeps, WeatherUpstream>();

/** The server's weather upstream (one per running server; tests reach it to set the clock). */
export function weatherUpstream(ctx: WeatherDeps): WeatherUpstream {
  let s = services.get(ctx);
  if (!s) {
    s = new WeatherUpstream({ url: ctx.config.weatherUrl, timeoutMs: ctx.config.weatherTimeoutMs });
    services.set(ctx, s);
  }
  return s;
}
