// {BASE_URL}/dashboard: accounts, their projects, keys (create, rename, revoke; the secret is
// shown once), usage per key per day against the plan's quota, refused requests, members,
// webhooks and the audit log. Plain server-rendered HTML; every form is a POST with a CSRF
// token and answers with a redirect (or the one page that shows a new secret). These routes
// take no API key (scope null): the session cookie is checked here, and a project is visible
// only to its members — to anyone else it does not exist (404).
import { readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HttpError, route, type AppContext, type Reply, type Req, type RouteDef } from '../../http/types.ts';
import { httpErrorOf } from '../../http/domain-errors.ts';
import type { BodyOf, Declaration, Schema } from '../../http/declaration.ts';
import { F, Q } from '../../http/declaration.ts';
import { createKey, revokeKey, BROWSER_SCOPES } from '../../auth/keys.ts';
import { SCOPES, DEFAULT_SCOPES, PLANS, type Plan } from '../../auth/scopes.ts';
import { createAccount, login, findAccount, projectsOf, isMember, addMember } from '../../auth/accounts.ts';
import { audit, auditTrail } from '../../store/audit.ts';
import { EVENT_TYPES } from '../../webhooks/events.ts';
import { createProject, dailyUsage, keysWithUsage, members as projectMembers, nameNewKey, projectHasKey, recentRefusals, renameKey } from '../../store/dashboard.ts';
import { createEndpoint, listEndpoints, getEndpoint, updateEndpoint, deleteEndpoint, deliveries, replay } from '../../webhooks/endpoints.ts';
import { page, redirect, html, csrfField, when, fmt, type Html } from './html.ts';
import { usageChart, monthDays } from './chart.ts';
import {
  loadSession, startSession, endSession, checkCsrf, checkPreCsrf, preCsrf, cookie, throttled, failedAttempt,
  SESSION_COOKIE, CSRF_COOKIE, SESSION_HOURS, type Session,
} from './session.ts';

const ASSETS = join(dirname(fileURLToPath(import.meta.url)), 'assets');
const asset = (f: string) => readFileSync(join(ASSETS, f));
export const PROJECT_RE = /^[a-z0-9][a-z0-9_.-]{2,63}$/;
/** Plan of projects created in the dashboard; an operator changes it in the database or CLI. */
const NEW_PROJECT_PLAN: Plan = 'free';

const str = (v: unknown, max = 500) => (typeof v === 'string' ? v.slice(0, max) : Array.isArray(v) ? String(v[0] ?? '').slice(0, max) : '');
const list = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : typeof v === 'string' && v ? [v] : []);
const actor = (s: Session) => `account:${s.account.email}`;

const HTML_200 = { description: 'An HTML page', contentType: 'text/html' };
const SEE_OTHER = { description: 'Redirect (to the sign-in page without a session, or after a form)' };
/** The forms' bodies: every one carries the session's (or the pre-sign-in) CSRF token. */
const form = <P extends Record<string, Schema>>(fields: P) => F.form({ _csrf: F.field(), ...fields });
const FORMS = {
  csrf: form({}),
  account: form({ email: F.field(), password: F.field({ verbatim: true }) }),
  project: form({ name: F.field() }),
  key: form({ name: F.field(), type: F.field(), scopes: F.field(), origins: F.field() }),
  rename: form({ name: F.field() }),
  member: form({ email: F.field() }),
  webhook: form({ url: F.field(), mode: F.field(), events: F.field(), description: F.field() }),
  replay: form({ event_id: F.field() }),
};

/** A page (GET) or, with a form, an HTML form POST; the form's fields type the handler's req.body. */
function decl<const B extends Schema | undefined = undefined>(summary: string, o: { params?: Record<string, string>; form?: B; query?: Declaration['query'] } = {}): Declaration & { body: B } {
  const post = o.form !== undefined;
  return {
    summary, tag: 'dashboard',
    body: o.form as B,
    description: post ? 'HTML form POST (application/x-www-form-urlencoded) with the `_csrf` field of the signed-in session; answers 303.' : 'Server-rendered HTML; needs the dashboard session cookie (else 303 to /dashboard/login).',
    ...(o.params ? { params: Object.fromEntries(Object.entries(o.params).map(([k, d]) => [k, { schema: Q.str({ maxLength: 100 }), required: true, description: d }])) } : {}),
    ...(o.query ? { query: o.query } : {}),
    responses: post ? { 303: SEE_OTHER, 200: HTML_200, 400: { description: 'Invalid form field (HTML page)', contentType: 'text/html' }, 403: { description: 'CSRF token missing or wrong (HTML page)', contentType: 'text/html' } } : { 200: HTML_200, 303: SEE_OTHER },
    examples: [{
      ...(o.params ? { params: Object.fromEntries(Object.keys(o.params).map((k) => [k, 'example'])) } : {}),
      ...(o.form ? { body: Object.fromEntries(Object.keys(o.form.properties as object).map((k) => [k, 'example'])) } : {}),
    }],
  };
}

function errorPage(e: HttpError, s: Session | null): Reply {
  return page('Error', html`<section class="card error"><h1>${e.status === 404 ? 'Not found' : 'Something is not right'}</h1><p class="msg">${e.message}</p>
    <p><a href="/dashboard" data-back>Back</a> · <a href="/dashboard">Projects</a></p></section>`,
  { status: e.status, email: s?.account.email, csrf: s?.csrf, headers: e.headers });
}

/** A dashboard request whose body is the form B declares (undefined for pages). */
type FormReq<B> = Req<Record<string, any>, B>;
type Handler<B> = (req: FormReq<B>, ctx: AppContext, s: Session) => Promise<Reply> | Reply;

/** Signed-in pages: session (else redirect to sign in), CSRF on POST, HTML errors. */
function signedIn<B = undefined>(fn: Handler<B>) {
  return async (req: FormReq<B>, ctx: AppContext): Promise<Reply> => {
    const s = await loadSession(req, ctx.store);
    if (!s) return redirect('/dashboard/login');
    try {
      if (req.method === 'POST') checkCsrf(req, s);
      return await fn(req, ctx, s);
    } catch (thrown) {
      const e = httpErrorOf(thrown) ?? thrown;
      if (e instanceof HttpError) return errorPage(e, s);
      if (e instanceof Error && (e as any).userFacing) return errorPage(new HttpError(400, 'invalid_parameter', e.message), s);
      throw e;
    }
  };
}

/** Project pages: the account must be a member, else the project does not exist for it. */
function member<B = undefined>(fn: (req: FormReq<B>, ctx: AppContext, s: Session, p: { id: string; plan: Plan; role: string }) => Promise<Reply> | Reply) {
  return signedIn<B>(async (req, ctx, s) => {
    const id = req.params.project;
    const m = PROJECT_RE.test(id) ? await isMember(ctx.store, s.account.id, id) : null;
    if (!m) throw new HttpError(404, 'not_found', `No project '${id.slice(0, 64)}' among yours.`);
    return fn(req, ctx, s, { id, plan: m.plan as Plan, role: m.role });
  });
}

const userError = (msg: string) => Object.assign(new Error(msg), { userFacing: true });

// ---------- sign in, sign up, sign out ----------

function authPage(req: Req, ctx: AppContext, kind: 'login' | 'signup', o: { error?: string; email?: string; status?: number } = {}): Reply {
  const t = preCsrf(req);
  const signupOpen = ctx.config.dashboardSignup === 'open';
  const body = html`<section class="card narrow"><h1>${kind === 'login' ? 'Sign in' : 'Create an account'}</h1>
    ${o.error ? html`<p class="error msg" role="alert">${o.error}</p>` : ''}
    <form method="post" action="/dashboard/${kind}">${csrfField(t.token)}
      <label>Email <input type="email" name="email" autocomplete="username" required maxlength="254" value="${o.email ?? ''}"></label>
      <label>Password <input type="password" name="password" autocomplete="${kind === 'login' ? 'current-password' : 'new-password'}" required minlength="${kind === 'signup' ? 10 : 1}" maxlength="200"></label>
      <button type="submit">${kind === 'login' ? 'Sign in' : 'Create account'}</button>
    </form>
    ${kind === 'login' ? (signupOpen ? html`<p>No account? <a href="/dashboard/signup">Create one</a>.</p>` : html`<p>Accounts are created by the operator (<code>npm run keys -- account create</code>).</p>`) : html`<p>Have an account? <a href="/dashboard/login">Sign in</a>.</p>`}
  </section>`;
  return page(kind === 'login' ? 'Sign in' : 'Sign up', body, {
    status: o.status, headers: t.fresh ? { 'Set-Cookie': cookie(req, ctx, CSRF_COOKIE, t.token, 3600 * 24) } : {},
  });
}

async function signedInReply(req: Req, ctx: AppContext, accountId: string): Promise<Reply> {
  const { cookieValue } = await startSession(ctx.store, accountId);
  return redirect('/dashboard', { 'Set-Cookie': cookie(req, ctx, SESSION_COOKIE, cookieValue, SESSION_HOURS * 3600) });
}

// ---------- the project page ----------

async function projectPage(req: Req, ctx: AppContext, s: Session, p: { id: string; plan: Plan; role: string }, notice?: Html): Promise<Reply> {
  // The chart and the refusals show requests up to now, not up to the last flush.
  await Promise.all([ctx.quota.flush(), ctx.refusals?.flush()]);
  const store = ctx.store;
  const days = monthDays();
  const month = days[0].slice(0, 7);
  const [keys, daily, refused, trail, members, hooks] = await Promise.all([
    keysWithUsage(store, p.id, month),
    dailyUsage(store, p.id, days[0]),
    recentRefusals(store, p.id),
    auditTrail(store, p.id, 50),
    projectMembers(store, p.id),
    listEndpoints(store, p.id),
  ]);
  const byKey = new Map<string, Map<string, number>>();
  for (const r of daily) {
    const m = byKey.get(r.key_id) ?? new Map();
    m.set(r.day, Number(r.count));
    byKey.set(r.key_id, m);
  }
  const keyLabel = (k: any) => `${k.name ? k.name + ' · ' : ''}${k.display}…`;
  const charts = keys
    .filter((k: any) => !k.revoked_at || Number(k.used) > 0)
    .map((k: any) => usageChart(keyLabel(k), { days, counts: days.map((d) => byKey.get(k.id)?.get(d) ?? 0), quota: PLANS[k.plan as Plan] }));

  const keyRows = keys.map((k: any) => html`<tr data-key-id="${k.id}" class="${k.revoked_at ? 'revoked' : ''}">
    <td><code>${k.display}…</code></td>
    <td><form method="post" action="/dashboard/projects/${p.id}/keys/${k.id}/rename" class="inline rename">${csrfField(s.csrf)}
      <input name="name" value="${k.name ?? ''}" maxlength="80" placeholder="name" aria-label="Key name"${k.revoked_at ? ' disabled' : ''}><button class="small">Rename</button></form></td>
    <td>${k.origins ? html`browser${k.test ? ' (test)' : ''}<br><small class="origins">${k.origins.join(' ')}</small>` : k.test ? 'test' : 'live'}</td><td class="scopes">${k.scopes.join(', ')}</td><td>${k.plan}</td>
    <td class="num">${fmt(Number(k.used))} / ${fmt(PLANS[k.plan as Plan])}</td>
    <td>${when(k.created_at)}</td>
    <td>${k.revoked_at ? html`revoked ${when(k.revoked_at)}` : html`<form method="post" action="/dashboard/projects/${p.id}/keys/${k.id}/revoke" class="inline" data-confirm="Revoke this key? Requests with it will answer 401 within about a second.">${csrfField(s.csrf)}<button class="danger small">Revoke</button></form>`}</td>
  </tr>`);

  const scopeBoxes = SCOPES.map((sc) => html`<label class="check"><input type="checkbox" name="scopes" value="${sc}"${(DEFAULT_SCOPES as string[]).includes(sc) ? ' checked' : ''}> ${sc}</label>`);
  const eventBoxes = EVENT_TYPES.map((e) => html`<label class="check"><input type="checkbox" name="events" value="${e}" checked> ${e}</label>`);

  const body = html`
  <h1>Project <code>${p.id}</code> <span class="badge">${p.plan} plan · ${fmt(PLANS[p.plan])} requests / month per key</span></h1>
  ${notice ?? ''}
  <section class="card"><h2>Keys</h2>
    <table class="keys"><thead><tr><th>key</th><th>name</th><th>type</th><th>scopes</th><th>plan</th><th>this month</th><th>created</th><th></th></tr></thead>
    <tbody>${keyRows.length ? keyRows : html`<tr><td colspan="8">No keys yet.</td></tr>`}</tbody></table>
    <details${keys.length ? '' : ' open'}><summary>Create a key</summary>
    <form method="post" action="/dashboard/projects/${p.id}/keys" class="stack" id="create-key">${csrfField(s.csrf)}
      <label>Name <input name="name" maxlength="80" placeholder="e.g. checkout backend"></label>
      <fieldset><legend>Type</legend>
        <label class="check"><input type="radio" name="type" value="live" checked> live (server side)</label>
        <label class="check"><input type="radio" name="type" value="test"> test (sandbox)</label>
        <label class="check"><input type="radio" name="type" value="browser"> browser (web pages on the origins below; ${BROWSER_SCOPES.join(' and ')} scopes only)</label>
      </fieldset>
      <label class="origins-field">Allowed origins (browser keys), one per line <textarea name="origins" rows="2" maxlength="2000" placeholder="https://shop.example.com"></textarea></label>
      <fieldset><legend>Scopes</legend>${scopeBoxes}</fieldset>
      <button type="submit">Create key</button>
    </form></details>
  </section>
  <section class="card"><h2>Usage this month (UTC)</h2>
    ${charts.length ? charts : html`<p>No usage yet.</p>`}
  </section>
  <section class="card"><h2>Refused requests (latest 50)</h2>
    ${refused.length ? html`<table class="refusals"><thead><tr><th>when</th><th>key</th><th>status</th><th>code</th><th>endpoint</th></tr></thead><tbody>
      ${refused.map((r: any) => html`<tr><td>${when(r.at)}</td><td><code>${r.display ?? r.key_id}…</code>${r.name ? ` ${r.name}` : ''}</td><td>${r.status}</td><td>${r.code}</td><td>${r.route}</td></tr>`)}
    </tbody></table>` : html`<p>None: no request of this project was refused with 403 or 429.</p>`}
  </section>
  <section class="card"><h2>Webhooks</h2>
    ${hooks.length ? html`<table class="webhooks"><thead><tr><th>endpoint</th><th>mode</th><th>events</th><th>state</th><th></th></tr></thead><tbody>
      ${hooks.map((w) => html`<tr><td><code>${w.url}</code>${w.description ? html`<br><small>${w.description}</small>` : ''}</td><td>${w.mode}</td><td class="scopes">${w.events.join(', ')}</td><td>${w.enabled ? 'enabled' : 'disabled'}</td>
        <td><a href="/dashboard/projects/${p.id}/webhooks/${w.id}">event log</a></td></tr>`)}
    </tbody></table>` : html`<p>No webhook endpoints.</p>`}
    <details><summary>Add an endpoint</summary>
    <form method="post" action="/dashboard/projects/${p.id}/webhooks" class="stack" id="create-webhook">${csrfField(s.csrf)}
      <label>URL <input name="url" type="url" required maxlength="2048" placeholder="https://example.com/hooks/svc"></label>
      <fieldset><legend>Mode</legend>
        <label class="check"><input type="radio" name="mode" value="live" checked> live (events from live keys)</label>
        <label class="check"><input type="radio" name="mode" value="test"> test (events from test keys)</label></fieldset>
      <fieldset><legend>Events</legend>${eventBoxes}</fieldset>
      <label>Description <input name="description" maxlength="200"></label>
      <button type="submit">Add endpoint</button>
    </form></details>
  </section>
  <section class="card"><h2>Members</h2>
    <ul>${members.map((m: any) => html`<li>${m.email} <small>(${m.role}, since ${when(m.added_at)})</small></li>`)}</ul>
    <form method="post" action="/dashboard/projects/${p.id}/members" class="inline">${csrfField(s.csrf)}
      <input name="email" type="email" required placeholder="colleague@example.com" aria-label="Email of an existing account"><button class="small">Add member</button></form>
  </section>
  <section class="card"><h2>Audit log (latest 50)</h2>
    <table class="audit"><thead><tr><th>when</th><th>who</th><th>what</th><th>target</th><th>detail</th></tr></thead><tbody>
    ${trail.map((a) => html`<tr><td>${when(a.at)}</td><td>${a.actor}</td><td>${a.action}</td><td><code>${a.target ?? ''}</code></td><td><small>${JSON.stringify(a.detail)}</small></td></tr>`)}
    </tbody></table>
  </section>`;
  return page(p.id, body, { email: s.account.email, csrf: s.csrf });
}

function secretNotice(title: string, what: string, secret: string, extra?: Html): Html {
  return html`<section class="card secret" role="status"><h2>${title}</h2>
    <p>${what} It is shown <strong>only now</strong>: copy it and keep it somewhere safe. Only its hash is kept${what.includes('signing') ? ' for keys; the signing secret is kept to sign deliveries' : ''}.</p>
    <p><code id="secret" class="secret-value">${secret}</code> <button type="button" class="small" data-copy="#secret">Copy</button></p>${extra ?? ''}</section>`;
}

// ---------- routes ----------

const P = { project: 'Project id' };
const PK = { project: 'Project id', key: 'Key id (key_…)' };
const PW = { project: 'Project id', id: 'Webhook endpoint id (whe_…)' };

export const routes: RouteDef[] = [
  {
    method: 'GET', path: '//dashboard', scope: null, decl: decl('Dashboard: the projects of the signed-in account'),
    handler: signedIn(async (_req, ctx, s) => {
      const ps = await projectsOf(ctx.store, s.account.id);
      const body = html`<h1>Your projects</h1>
        <section class="card">${ps.length ? html`<ul class="projects">${ps.map((p) => html`<li><a href="/dashboard/projects/${p.id}">${p.id}</a> <small>${p.plan} plan · ${p.role}</small></li>`)}</ul>` : html`<p>No project yet: create one.</p>`}
        <form method="post" action="/dashboard/projects" class="inline" id="create-project">${csrfField(s.csrf)}
          <input name="name" required pattern="[a-z0-9][a-z0-9_.\\-]{2,63}" maxlength="64" placeholder="project-id (a-z 0-9 _ . -)" aria-label="Project id"><button>Create project</button></form></section>`;
      return page('Projects', body, { email: s.account.email, csrf: s.csrf });
    }),
  },
  {
    method: 'GET', path: '//dashboard/login', scope: null, decl: { ...decl('Dashboard sign-in page'), description: 'Sets the pre-sign-in CSRF cookie.' },
    handler: (req, ctx) => authPage(req, ctx, 'login'),
  },
  route({
    method: 'POST', path: '//dashboard/login', scope: null, decl: { ...decl('Sign in (email, password); throttled per address and locked per account after 5 failures', { form: FORMS.account }), responses: { 303: SEE_OTHER, 401: HTML_200, 403: HTML_200, 429: HTML_200 } },
    handler: async (req, ctx) => {
      try { checkPreCsrf(req); } catch (e) { return authPage(req, ctx, 'login', { error: (e as Error).message, status: 403 }); }
      const email = str(req.body.email, 254), password = str(req.body.password, 200);
      const wait = throttled(req.ip);
      if (wait) return authPage(req, ctx, 'login', { error: `Too many failed sign-ins from your address. Try again in ${Math.ceil(wait / 60)} minutes.`, email, status: 429 });
      const r = await login(ctx.store, email, password);
      if (!r.ok) {
        failedAttempt(req.ip);
        const msg = r.reason === 'locked' ? `Too many failed attempts: this account is locked for ${Math.ceil((r.retryAfterS ?? 60) / 60)} minutes.` : 'Wrong email or password.';
        return authPage(req, ctx, 'login', { error: msg, email, status: r.reason === 'locked' ? 429 : 401 });
      }
      return signedInReply(req, ctx, r.account.id);
    },
  }),
  {
    method: 'GET', path: '//dashboard/signup', scope: null, decl: decl('Dashboard sign-up page (when DASHBOARD_SIGNUP is open)'),
    handler: (req, ctx) => (ctx.config.dashboardSignup === 'open' ? authPage(req, ctx, 'signup') : redirect('/dashboard/login')),
  },
  route({
    method: 'POST', path: '//dashboard/signup', scope: null, decl: decl('Create an account (email, password of 10+ characters) and sign in', { form: FORMS.account }),
    handler: async (req, ctx) => {
      if (ctx.config.dashboardSignup !== 'open') return redirect('/dashboard/login');
      try { checkPreCsrf(req); } catch (e) { return authPage(req, ctx, 'signup', { error: (e as Error).message, status: 403 }); }
      const email = str(req.body.email, 254), password = str(req.body.password, 200);
      if (throttled(req.ip)) return authPage(req, ctx, 'signup', { error: 'Too many failed attempts from your address; try again later.', email, status: 429 });
      try {
        const a = await createAccount(ctx.store, email, password);
        return signedInReply(req, ctx, a.id);
      } catch (e) {
        failedAttempt(req.ip);
        return authPage(req, ctx, 'signup', { error: (e as Error).message, email, status: 400 });
      }
    },
  }),
  route({
    method: 'POST', path: '//dashboard/logout', scope: null, decl: decl('Sign out (ends the session)', { form: FORMS.csrf }),
    handler: signedIn<BodyOf<typeof FORMS.csrf>>(async (req, ctx) => {
      await endSession(req, ctx.store);
      return redirect('/dashboard/login', { 'Set-Cookie': cookie(req, ctx, SESSION_COOKIE, '', 0) });
    }),
  }),
  route({
    method: 'POST', path: '//dashboard/projects', scope: null, decl: decl('Create a project (the account becomes its owner)', { form: FORMS.project }),
    handler: signedIn<BodyOf<typeof FORMS.project>>(async (req, ctx, s) => {
      const id = str(req.body.name, 64).trim().toLowerCase();
      if (!PROJECT_RE.test(id)) throw userError('A project id has 3-64 characters: a-z, 0-9, _ . - (starting with a letter or digit).');
      const created = await ctx.store.tx(async (c) => {
        if (!(await createProject(c, id, NEW_PROJECT_PLAN, s.account.id))) return false;
        await audit(c, { project: id, actor: actor(s), action: 'project.create', target: id, detail: { plan: NEW_PROJECT_PLAN }, ip: req.ip });
        return true;
      });
      if (!created) throw userError(`The project id '${id}' is taken; choose another.`);
      return redirect(`/dashboard/projects/${id}`);
    }),
  }),
  {
    method: 'GET', path: '//dashboard/projects/:project', scope: null, decl: decl('A project: keys, usage chart, refused requests, webhooks, members, audit log', { params: P }),
    handler: member((req, ctx, s, p) => projectPage(req, ctx, s, p)),
  },
  route({
    method: 'POST', path: '//dashboard/projects/:project/keys', scope: null, decl: decl('Create a key (name, type live|test|browser, scopes, origins for browser keys); the answer shows the secret once', { params: P, form: FORMS.key }),
    handler: member<BodyOf<typeof FORMS.key>>(async (req, ctx, s, p) => {
      const type = str(req.body.type, 10) || 'live';
      if (type !== 'live' && type !== 'test' && type !== 'browser') throw userError("The key type must be 'live', 'test' or 'browser'.");
      const browser = type === 'browser';
      // A browser key holds only the maps and geo scopes: the other ticked boxes do not apply to it.
      const scopes = list(req.body.scopes).filter((x) => !browser || BROWSER_SCOPES.includes(x));
      const origins = browser ? str(req.body.origins, 2000).split(/[\s,]+/).filter(Boolean) : undefined;
      if (browser && !origins!.length) throw userError('A browser key needs at least one allowed origin, such as https://shop.example.com.');
      if (!scopes.length) throw userError('Choose at least one scope.');
      const bad = scopes.find((x) => !(SCOPES as readonly string[]).includes(x));
      if (bad) throw userError(`Unknown scope '${bad}'.`);
      const name = str(req.body.name, 80).trim() || null;
      let made;
      try {
        made = await createKey(ctx.store, { project: p.id, plan: p.plan, test: type === 'test', scopes, origins });
      } catch (e) {
        throw userError((e as Error).message); // bad origins or scopes: createKey says which
      }
      const { key, row } = made;
      await ctx.store.tx(async (c) => {
        if (name) await nameNewKey(c, row.id, name);
        await audit(c, { project: p.id, actor: actor(s), action: 'key.create', target: row.id, detail: { name, type, scopes: row.scopes, display: row.display, ...(row.origins ? { origins: row.origins } : {}) }, ip: req.ip });
      });
      return projectPage(req, ctx, s, p, secretNotice('New key created', `Your new ${type} key ${name ? `“${name}” ` : ''}(${row.id}) is below.`, key));
    }),
  }),
  route({
    method: 'POST', path: '//dashboard/projects/:project/keys/:key/rename', scope: null, decl: decl('Rename a key', { params: PK, form: FORMS.rename }),
    handler: member<BodyOf<typeof FORMS.rename>>(async (req, ctx, s, p) => {
      const name = str(req.body.name, 80).trim() || null;
      const done = await ctx.store.tx(async (c) => {
        if (!(await renameKey(c, p.id, req.params.key, name))) return false;
        await audit(c, { project: p.id, actor: actor(s), action: 'key.rename', target: req.params.key, detail: { name }, ip: req.ip });
        return true;
      });
      if (!done) throw new HttpError(404, 'not_found', 'No such key in this project.');
      return redirect(`/dashboard/projects/${p.id}`);
    }),
  }),
  route({
    method: 'POST', path: '//dashboard/projects/:project/keys/:key/revoke', scope: null, decl: decl('Revoke a key (401 for it within about a second)', { params: PK, form: FORMS.csrf }),
    handler: member<BodyOf<typeof FORMS.csrf>>(async (req, ctx, s, p) => {
      if (!(await projectHasKey(ctx.store, p.id, req.params.key))) throw new HttpError(404, 'not_found', 'No such key in this project.');
      const r = await revokeKey(ctx.store, req.params.key);
      await audit(ctx.store, { project: p.id, actor: actor(s), action: 'key.revoke', target: req.params.key, detail: { display: r?.display }, ip: req.ip });
      return redirect(`/dashboard/projects/${p.id}`);
    }),
  }),
  route({
    method: 'POST', path: '//dashboard/projects/:project/members', scope: null, decl: decl('Add an existing account to the project', { params: P, form: FORMS.member }),
    handler: member<BodyOf<typeof FORMS.member>>(async (req, ctx, s, p) => {
      const email = str(req.body.email, 254);
      const a = await findAccount(ctx.store, email);
      if (!a) throw userError('No account with that email: ask them to sign up first.');
      await addMember(ctx.store, p.id, a.id, 'member');
      await audit(ctx.store, { project: p.id, actor: actor(s), action: 'member.add', target: a.email, ip: req.ip });
      return redirect(`/dashboard/projects/${p.id}`);
    }),
  }),
  route({
    method: 'POST', path: '//dashboard/projects/:project/webhooks', scope: null, decl: decl('Add a webhook endpoint (url, mode, events); the answer shows its signing secret once', { params: P, form: FORMS.webhook }),
    handler: member<BodyOf<typeof FORMS.webhook>>(async (req, ctx, s, p) => {
      const mode = str(req.body.mode, 10) || 'live';
      if (mode !== 'live' && mode !== 'test') throw userError("The mode must be 'live' or 'test'.");
      const w = await createEndpoint(ctx.store, { project: p.id, sandbox: mode === 'test' }, { url: str(req.body.url, 2048), events: list(req.body.events), description: str(req.body.description, 200) || null }, actor(s), ctx.config.webhookAllowPrivate, req.ip);
      return projectPage(req, ctx, s, p, secretNotice('Webhook endpoint added', `The signing secret of ${w.url} (${w.id}) is below.`, w.secret!,
        html`<p>Verify every delivery's <code>Svc-Signature</code> header with it: see <a href="/docs">the docs</a> (docs/webhooks.md).</p>`));
    }),
  }),
  {
    method: 'GET', path: '//dashboard/projects/:project/webhooks/:id', scope: null, decl: decl("A webhook endpoint's event log: deliveries and attempts", { params: PW }),
    handler: member(async (_req, ctx, s, p) => {
      const w = await getEndpoint(ctx.store, p.id, undefined, _req.params.id);
      if (!w) throw new HttpError(404, 'not_found', 'No such webhook endpoint in this project.');
      const ds = await deliveries(ctx.store, w.id, 100);
      const base = `/dashboard/projects/${p.id}/webhooks/${w.id}`;
      const body = html`<p><a href="/dashboard/projects/${p.id}">← ${p.id}</a></p>
        <h1>Webhook <code>${w.url}</code></h1>
        <section class="card"><p>${w.sandbox ? 'test' : 'live'} · events: ${w.events.join(', ')} · ${w.enabled ? 'enabled' : 'disabled'}</p>
          <form method="post" action="${base}/toggle" class="inline">${csrfField(s.csrf)}<button class="small">${w.enabled ? 'Disable' : 'Enable'}</button></form>
          <form method="post" action="${base}/delete" class="inline" data-confirm="Delete this endpoint? Pending deliveries to it stop.">${csrfField(s.csrf)}<button class="danger small">Delete</button></form></section>
        <section class="card"><h2>Event log (latest 100)</h2>
        ${ds.length ? html`<table class="deliveries"><thead><tr><th>created</th><th>event</th><th>type</th><th>status</th><th>attempts</th><th>last answer</th><th></th></tr></thead><tbody>
          ${ds.map((d) => html`<tr class="${d.status}"><td>${when(d.created_at)}</td><td><code>${d.event_id}</code>${d.replay ? ' (replay)' : ''}</td><td>${d.type}</td>
            <td>${d.status}${d.status === 'pending' && d.next_attempt_at ? html`<br><small>next ${when(d.next_attempt_at)}</small>` : ''}</td><td>${d.attempts}</td>
            <td>${d.last_status ?? ''} ${d.last_error ?? ''}</td>
            <td><form method="post" action="${base}/replay" class="inline">${csrfField(s.csrf)}<input type="hidden" name="event_id" value="${d.event_id}"><button class="small">Replay</button></form></td></tr>`)}
        </tbody></table>` : html`<p>No events delivered to this endpoint yet.</p>`}</section>`;
      return page('Webhook', body, { email: s.account.email, csrf: s.csrf });
    }),
  },
  route({
    method: 'POST', path: '//dashboard/projects/:project/webhooks/:id/toggle', scope: null, decl: decl('Enable or disable a webhook endpoint', { params: PW, form: FORMS.csrf }),
    handler: member<BodyOf<typeof FORMS.csrf>>(async (req, ctx, s, p) => {
      const w = await getEndpoint(ctx.store, p.id, undefined, req.params.id);
      if (!w) throw new HttpError(404, 'not_found', 'No such webhook endpoint in this project.');
      await updateEndpoint(ctx.store, { project: p.id }, w.id, { enabled: !w.enabled }, actor(s), ctx.config.webhookAllowPrivate, req.ip);
      return redirect(`/dashboard/projects/${p.id}/webhooks/${w.id}`);
    }),
  }),
  route({
    method: 'POST', path: '//dashboard/projects/:project/webhooks/:id/delete', scope: null, decl: decl('Delete a webhook endpoint', { params: PW, form: FORMS.csrf }),
    handler: member<BodyOf<typeof FORMS.csrf>>(async (req, ctx, s, p) => {
      if (!(await deleteEndpoint(ctx.store, { project: p.id }, req.params.id, actor(s), req.ip))) throw new HttpError(404, 'not_found', 'No such webhook endpoint in this project.');
      return redirect(`/dashboard/projects/${p.id}`);
    }),
  }),
  route({
    method: 'POST', path: '//dashboard/projects/:project/webhooks/:id/replay', scope: null, decl: decl('Send one event again to a webhook endpoint', { params: PW, form: FORMS.replay }),
    handler: member<BodyOf<typeof FORMS.replay>>(async (req, ctx, s, p) => {
      const w = await getEndpoint(ctx.store, p.id, undefined, req.params.id);
      if (!w) throw new HttpError(404, 'not_found', 'No such webhook endpoint in this project.');
      const n = await replay(ctx.store, w, { event_id: str(req.body.event_id, 64) }, actor(s), req.ip);
      if (!n) throw new HttpError(404, 'not_found', 'No such event for this endpoint.');
      ctx.webhooks?.wake();
      return redirect(`/dashboard/projects/${p.id}/webhooks/${w.id}`);
    }),
  }),
  {
    method: 'GET', path: '//dashboard/assets/:file', scope: null,
    decl: { summary: 'Dashboard stylesheet and script', tag: 'dashboard', params: { file: { schema: Q.enum(['dashboard.css', 'dashboard.js']), required: true } },
      responses: { 200: { description: 'CSS or JavaScript', contentType: 'text/css' } }, examples: [{ params: { file: 'dashboard.css' } }] },
    handler: (req) => {
      const f = req.params.file;
      const body = f === 'dashboard.css' ? CSS : JS;
      return { bytes: body, contentType: f.endsWith('.css') ? 'text/css; charset=utf-8' : 'text/javascript; charset=utf-8', headers: { 'Cache-Control': 'public, max-age=300', 'X-Content-Type-Options': 'nosniff' } };
    },
  },
];

const CSS = asset('dashboard.css');
const JS = asset('dashboard.js');
