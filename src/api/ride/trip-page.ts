// The page a trip link serves: our map (the browser SDK, svc.js, on our tiles) with one marker at
// the device's last real position, moved as the position feed answers (every 5 s), the age of the
// position, and the link's end once the feed answers 410. The page holds the link's token, which
// also opens the map's style and tiles while the link lives; never an API key.
import type { AppContext } from '../../http/types.ts';

/** How often the page asks the feed, milliseconds. */
export const POLL_MS = 5000;

export function tripPage(ctx: AppContext, o: { token: string; label: string | null; expiresAt: string }): string {
  const js = (v: unknown) => JSON.stringify(v).replace(/</g, '\\u003c');
  const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  const base = ctx.config.baseUrl;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="referrer" content="no-referrer"><meta name="robots" content="noindex">
<title>${esc(o.label ?? 'Live trip')}</title>
<link rel="stylesheet" href="${base}/sdk/v1/lib/maplibre-gl.css">
<style>html,body,#map{margin:0;padding:0;width:100%;height:100%}body{background:#aad3df;font:14px system-ui,sans-serif}
#bar{position:absolute;z-index:2;left:8px;right:8px;top:8px;background:#fff;border-radius:6px;padding:8px 12px;box-shadow:0 1px 4px rgba(0,0,0,.3)}
#bar b{display:block}</style>
</head><body><div id="bar" role="status" aria-live="polite"><b id="label"></b><span id="state">Waiting for the first position…</span></div>
<div id="map" role="region" aria-label="Map"></div>
<script src="${base}/sdk/v1/svc.js"></script>
<script>
var o = ${js({ token: o.token, label: o.label, expiresAt: o.expiresAt, feed: `${base}/trip/${o.token}/position`, poll: POLL_MS })};
document.getElementById('label').textContent = o.label || 'Live trip';
var state = document.getElementById('state');
var map = new svc.Map({ container: 'map', center: [0, 20], zoom: 2, theme: 'day', key: o.token, preserveDrawingBuffer: true });
window.svcMap = map;
var marker = null, timer = null, seen = null;
function ago(s) { return s < 90 ? s + ' s ago' : Math.round(s / 60) + ' min ago'; }
function show(p, age) {
  document.body.setAttribute('data-lat', p.lat); document.body.setAttribute('data-lng', p.lng);
  state.textContent = 'Last position ' + ago(age) + ' (' + new Date(p.ts).toLocaleTimeString() + ')';
  if (marker) { marker.setLngLat([p.lng, p.lat]); }
  else { map.addMarker({ lat: p.lat, lng: p.lng }, { color: '#1e88e5' }).then(function (m) { marker = m; }); }
  if (seen === null) map.getMap().then(function (m) { m.jumpTo({ center: [p.lng, p.lat], zoom: 15 }); });
  seen = p.ts;
}
function end(msg) {
  clearInterval(timer); state.textContent = msg; document.body.setAttribute('data-ended', '1');
}
function poll() {
  fetch(o.feed, { cache: 'no-store' }).then(function (r) {
    if (r.status === 410) return r.json().then(function (b) { end((b.error && b.error.message) || 'This trip link has ended.'); });
    if (!r.ok) return;
    return r.json().then(function (b) { if (b.position) show(b.position, b.age_s); document.body.setAttribute('data-polled', String(Date.now())); });
  }).catch(function () { state.textContent = 'Connection lost; retrying…'; });
}
poll();
timer = setInterval(poll, o.poll);
</script>
</body></html>
`;
}
