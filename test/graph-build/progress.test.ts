// Build progress an operator can follow: JSON lines on stderr when it is not a terminal, the bar
// when it is, a summary at the end; and the graph-build CLI really prints them through a pipe.
import { describe, it, expect, afterAll } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { progressBar } from '../../graph-build/progress.ts';
import { REPO, SHARED_DATA } from '../helpers/paths.ts';

function sink(isTTY: boolean) {
  const chunks: string[] = [];
  return { out: { isTTY, write: (s: string) => chunks.push(s) }, chunks, lines: () => chunks.join('').split('\n').filter(Boolean).map((l) => JSON.parse(l)) };
}

describe('progressBar off a terminal', () => {
  it('prints a phase start, at most one step a second with rate and ETA, the end, and a summary', () => {
    let t = 0;
    const s = sink(false);
    const p = progressBar(true, { out: s.out, now: () => t, peakRss: () => 300 * 2 ** 20 });
    p.update('contract driving', 0, 0, 1000);
    for (let i = 1; i <= 40; i++) { t += 100; p.update('contract driving', i / 40, i * 25, 1000); } // 4 s, 40 updates
    t += 500;
    p.update('write driving', 0);
    t += 250;
    p.summary({ name: 'x' });
    const lines = s.lines();
    expect(lines[0]).toEqual({ phase: 'contract driving', event: 'start' });
    const steps = lines.filter((l) => l.phase === 'contract driving' && !l.event);
    expect(steps.length).toBe(4); // at 1, 2, 3 and 4 s: never two within a second
    expect(steps[0]).toEqual({ phase: 'contract driving', done: 250, total: 1000, fraction: 0.25, rate: 250, eta_s: 3 });
    expect(lines).toContainEqual({ phase: 'contract driving', event: 'end', seconds: 4.5 });
    expect(lines).toContainEqual({ phase: 'write driving', event: 'end', seconds: 0.25 });
    expect(lines.at(-1)).toEqual({
      event: 'summary', seconds: 4.75, peak_rss_mb: 300, name: 'x',
      phases: [{ phase: 'contract driving', seconds: 4.5 }, { phase: 'write driving', seconds: 0.25 }],
    });
  });

  it('reports a fraction rate when the caller has no counts, and nothing when disabled', () => {
    let t = 0;
    const s = sink(false);
    const p = progressBar(true, { out: s.out, now: () => t });
    p.update('reading', 0);
    t = 2000;
    p.update('reading', 0.5);
    expect(s.lines()[1]).toEqual({ phase: 'reading', fraction: 0.5, rate: 0.25, eta_s: 2 });
    const off = sink(false);
    const q = progressBar(false, { out: off.out, now: () => t });
    q.update('reading', 0.5);
    q.summary();
    expect(off.chunks).toEqual([]);
  });

  it('draws the bar on a terminal and ends with a one-line summary', () => {
    let t = 0;
    const s = sink(true);
    const p = progressBar(true, { out: s.out, now: () => t, peakRss: () => 2 ** 30 });
    p.update('reading', 0.5);
    t = 1500;
    p.summary();
    const text = s.chunks.join('');
    expect(text).toContain('[###############...............]  50%');
    expect(text).toMatch(/reading 1\.5 s; 1\.5 s in all, peak RSS 1024 MiB\n$/);
    expect(text).not.toContain('{');
  });
});

// what `npm run graph-build` runs: the launcher and its bundle
describe('graph-build CLI with stderr piped', () => {
  const out = mkdtempSync(join(tmpdir(), 'svc-progress-'));
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it('prints JSON lines for every phase and a summary', () => {
    const r = spawnSync(process.execPath, ['graph-build/cli.mjs', '--input', join(SHARED_DATA, 'djibouti-2022-08-roads-secondary-plus.osm.pbf'), '--name', 'dj', '--profiles', 'driving,walk', '--out', out], { cwd: REPO, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    expect(r.status, r.stderr).toBe(0);
    const lines = r.stderr.split('\n').filter(Boolean).map((l) => JSON.parse(l));
    const events = lines.filter((l) => l.event === 'start' || l.event === 'end').map((l) => `${l.event} ${l.phase}`);
    expect(events).toEqual(['reading', 'segments driving', 'turns driving', 'contract driving', 'write driving', 'segments walk', 'turns walk', 'contract walk', 'write walk'].flatMap((p) => [`start ${p}`, `end ${p}`]));
    const summary = lines.at(-1);
    expect(summary.event).toBe('summary');
    expect(summary.name).toBe('dj');
    expect(summary.phases.map((p: { phase: string }) => p.phase)).toContain('contract walk');
    expect(summary.peak_rss_mb).toBeGreaterThan(30);
    expect(summary.seconds).toBeGreaterThanOrEqual(summary.phases.reduce((a: number, p: { seconds: number }) => a + p.seconds, 0) - 0.01);
    expect(r.stdout).toMatch(/^built dj in/);
  });
});
