// The usage chart: inline SVG rendered on the server. One bar per UTC day of the month (the
// key's requests that day, on the left scale) and the month-to-date total as a line against
// the plan's monthly quota (the right scale, the dashed line at the top is the quota).
import { html, fmt, type Html } from './html.ts';

const W = 640, H = 150, L = 44, R = 52, T = 12, B = 22;

export interface Series { days: string[]; counts: number[]; quota: number }

export function usageChart(label: string, s: Series): Html {
  const n = s.days.length;
  const plotW = W - L - R, plotH = H - T - B;
  const maxDay = Math.max(1, ...s.counts);
  const total = s.counts.reduce((a, b) => a + b, 0);
  const cum: number[] = [];
  s.counts.reduce((a, b, i) => (cum[i] = a + b), 0);
  const top = Number.isFinite(s.quota) ? Math.max(s.quota, total) : Math.max(1, total);
  const bw = plotW / n;
  const bars = s.counts.map((c, i) => {
    const h = (c / maxDay) * plotH;
    return html`<rect class="bar" x="${(L + i * bw + 1).toFixed(1)}" y="${(T + plotH - h).toFixed(1)}" width="${Math.max(1, bw - 2).toFixed(1)}" height="${h.toFixed(1)}"><title>${s.days[i]}: ${fmt(c)} requests</title></rect>`;
  });
  // The cumulative line stops at the last day with data (today), not at the month's end.
  const today = s.days.indexOf(new Date().toISOString().slice(0, 10));
  const lastIdx = today >= 0 ? today : n - 1;
  const pts = cum.slice(0, lastIdx + 1).map((c, i) => `${(L + i * bw + bw / 2).toFixed(1)},${(T + plotH - (c / top) * plotH).toFixed(1)}`).join(' ');
  const pct = Number.isFinite(s.quota) ? ` (${((total / s.quota) * 100).toFixed(total / s.quota < 0.01 ? 2 : 1)}%)` : '';
  const ticks = [0, Math.ceil(n / 2) - 1, n - 1].map((i) => html`<text class="tick" x="${(L + i * bw + bw / 2).toFixed(1)}" y="${H - 6}" text-anchor="middle">${s.days[i].slice(5)}</text>`);
  return html`<figure class="chart" data-used="${total}" data-quota="${Number.isFinite(s.quota) ? s.quota : ''}">
<figcaption>${label}: <strong class="used">${fmt(total)}</strong> of ${fmt(s.quota)} requests this month${pct}</figcaption>
<svg viewBox="0 0 ${W} ${H}" width="100%" role="img" aria-label="${label}: ${total} requests this month">
<line class="axis" x1="${L}" y1="${T + plotH}" x2="${W - R}" y2="${T + plotH}"/>
<text class="tick" x="${L - 4}" y="${T + 8}" text-anchor="end">${fmt(maxDay)}</text><text class="tick" x="${L - 4}" y="${T + plotH}" text-anchor="end">0</text>
<text class="tick q" x="${W - R + 4}" y="${T + 8}">${Number.isFinite(s.quota) ? fmt(top) : fmt(top)}</text>
${Number.isFinite(s.quota) ? html`<line class="quota" x1="${L}" y1="${(T + plotH - (s.quota / top) * plotH).toFixed(1)}" x2="${W - R}" y2="${(T + plotH - (s.quota / top) * plotH).toFixed(1)}"><title>monthly quota ${fmt(s.quota)}</title></line>` : ''}
${bars}
${pts ? html`<polyline class="cum" points="${pts}"><title>month to date: ${fmt(total)}</title></polyline>` : ''}
${ticks}
</svg></figure>`;
}

/** Every UTC date of the month of `now`, as YYYY-MM-DD. */
export function monthDays(now = Date.now()): string[] {
  const d = new Date(now);
  const y = d.getUTCFullYear(), m = d.getUTCMonth();
  const n = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  return Array.from({ length: n }, (_, i) => new Date(Date.UTC(y, m, i + 1)).toISOString().slice(0, 10));
}
