// Server-rendered HTML for the dashboard: escaping, the page frame and small form helpers.
// No request leaves for another host: styles and the one script are served from /dashboard/assets.
import type { Reply } from '../../http/types.ts';

export const esc = (v: unknown) => String(v ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** Marks trusted HTML (already escaped) so templates can nest. */
export class Html { constructor(readonly s: string) {} toString() { return this.s; } }
export function html(parts: TemplateStringsArray, ...vals: unknown[]): Html {
  let out = parts[0];
  vals.forEach((v, i) => {
    out += v instanceof Html ? v.s : Array.isArray(v) ? v.map((x) => (x instanceof Html ? x.s : esc(x))).join('') : v === null || v === undefined || v === false ? '' : esc(v);
    out += parts[i + 1];
  });
  return new Html(out);
}

export const SECURITY_HEADERS: Record<string, string> = {
  'Cache-Control': 'no-store',
  'Content-Security-Policy': "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'same-origin',
};

export function page(title: string, body: Html, o: { status?: number; email?: string; csrf?: string; headers?: Record<string, string> } = {}): Reply {
  const nav = o.email
    ? html`<nav><a href="/dashboard">Projects</a><span class="who">${o.email}</span>
        <form method="post" action="/dashboard/logout" class="inline"><input type="hidden" name="_csrf" value="${o.csrf}"><button class="link">Sign out</button></form></nav>`
    : html``;
  const doc = html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · svc dashboard</title><link rel="stylesheet" href="/dashboard/assets/dashboard.css"><script src="/dashboard/assets/dashboard.js" defer></script></head>
<body><header><a class="brand" href="/dashboard">svc</a> <span class="sub">developer dashboard</span>${nav}</header>
<main>${body}</main></body></html>`;
  return { status: o.status ?? 200, bytes: new TextEncoder().encode(doc.s), contentType: 'text/html; charset=utf-8', headers: { ...SECURITY_HEADERS, ...o.headers } };
}

export const redirect = (to: string, headers: Record<string, string> = {}): Reply =>
  ({ status: 303, bytes: new Uint8Array(0), contentType: 'text/plain', headers: { Location: to, 'Cache-Control': 'no-store', ...headers } });

export const csrfField = (t: string) => html`<input type="hidden" name="_csrf" value="${t}">`;

export const when = (d: Date | string | null) => (d ? new Date(d).toISOString().replace('T', ' ').slice(0, 16) + ' UTC' : '');

export const fmt = (n: number) => (Number.isFinite(n) ? n.toLocaleString('en-US') : 'unlimited');
