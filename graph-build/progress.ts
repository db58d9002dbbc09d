// What a build tells its operator while it runs. On a terminal: a one-line bar on stderr. Not on
// a terminal (nohup, systemd, CI, a pipe): JSON lines on stderr, one when a phase starts, at most
// one a second per phase while it runs (done/total, rate, ETA), one when it ends, and a summary
// at the end (each phase's seconds, the process's peak RSS), so a long build is never silent.
//
//   {"phase":"contract driving","event":"start"}
//   {"phase":"contract driving","done":120000,"total":400000,"fraction":0.3,"rate":95000,"eta_s":2.9}
//   {"phase":"contract driving","event":"end","seconds":4.2}
//   {"event":"summary","seconds":9.8,"phases":[{"phase":"reading","seconds":3.1},…],"peak_rss_mb":412}

export interface Progress {
  /**
   * `phase` is `fraction` (0–1) done; `done` of `total` units when the caller counts them (then
   * `rate` is units a second, else fraction a second). A new phase name ends the previous phase.
   */
  update(phase: string, fraction: number, done?: number, total?: number): void;
  /** Ends the current phase. */
  done(): void;
  /** Ends the current phase and reports every phase so far (and `extra` fields). */
  summary(extra?: Record<string, unknown>): void;
}

export interface ProgressOptions {
  /** Where lines go (stderr). */
  out?: { write(s: string): unknown; isTTY?: boolean };
  /** Milliseconds, monotonic (performance.now). */
  now?: () => number;
  /** Peak resident set size so far, bytes (the process's maxRSS). */
  peakRss?: () => number;
  /** Least milliseconds between two step lines of a phase. */
  everyMs?: number;
}

const round = (x: number, d: number) => Math.round(x * 10 ** d) / 10 ** d;

export function progressBar(enabled: boolean, o: ProgressOptions = {}): Progress {
  const out = o.out ?? process.stderr;
  const now = o.now ?? (() => performance.now());
  const peakRss = o.peakRss ?? (() => process.resourceUsage().maxRSS * 1024);
  const everyMs = o.everyMs ?? 1000;
  const tty = enabled && !!out.isTTY;
  const t0 = now();
  const phases: { phase: string; seconds: number }[] = [];
  let phase: string | null = null, startedAt = 0, lastLine = 0, lastPct = -1;
  const line = (f: Record<string, unknown>) => out.write(JSON.stringify(f) + '\n');

  function end() {
    if (phase === null) return;
    const seconds = round((now() - startedAt) / 1000, 3);
    phases.push({ phase, seconds });
    if (tty) out.write('\r\x1b[2K');
    else if (enabled) line({ phase, event: 'end', seconds });
    phase = null;
    lastPct = -1;
  }

  return {
    update(name, fraction, done, total) {
      if (!enabled) return;
      if (name !== phase) {
        end();
        phase = name;
        startedAt = lastLine = now();
        if (!tty) line({ phase, event: 'start' });
      }
      if (tty) {
        const pct = Math.floor(fraction * 100);
        if (pct === lastPct) return;
        lastPct = pct;
        const w = 30, fill = Math.round((w * pct) / 100);
        out.write(`\r${name.padEnd(22)} [${'#'.repeat(fill)}${'.'.repeat(w - fill)}] ${String(pct).padStart(3)}%`);
        return;
      }
      const t = now();
      if (t - lastLine < everyMs) return;
      lastLine = t;
      const s = (t - startedAt) / 1000;
      const counted = done !== undefined && total !== undefined;
      line({
        phase: name,
        ...(counted ? { done, total } : {}),
        fraction: round(fraction, 4),
        rate: s > 0 ? round((counted ? done : fraction) / s, counted ? 0 : 4) : null,
        eta_s: fraction > 0 ? round((s * (1 - fraction)) / fraction, 1) : null,
      });
    },
    done: end,
    summary(extra = {}) {
      end();
      if (!enabled) return;
      const seconds = round((now() - t0) / 1000, 3);
      const peak_rss_mb = Math.round(peakRss() / 2 ** 20);
      if (tty) out.write(`${phases.map((p) => `${p.phase} ${p.seconds} s`).join(', ')}; ${seconds} s in all, peak RSS ${peak_rss_mb} MiB\n`);
      else line({ event: 'summary', seconds, phases, peak_rss_mb, ...extra });
    },
  };
}
