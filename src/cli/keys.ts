// `npm run keys -- create|list|revoke`: manage API keys. Works while the server runs,
// embedded database included (it connects through the server's PGlite socket).
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../core/config.ts';
import { Store } from '../store/index.ts';
import { createKey, listKeys, revokeKey } from '../auth/keys.ts';
import type { Plan } from '../auth/scopes.ts';
import { createAccount, findAccount, addMember, setPassword } from '../auth/accounts.ts';
import { audit } from '../store/audit.ts';

/** The password from SVC_PASSWORD, else the first line of stdin (never a command-line argument: it would show in ps). */
async function readPassword(): Promise<string> {
  if (process.env.SVC_PASSWORD) return process.env.SVC_PASSWORD;
  if (process.stdin.isTTY) process.stderr.write('password: ');
  let data = '';
  for await (const chunk of process.stdin) {
    data += chunk;
    if (data.includes('\n')) break;
  }
  return data.split('\n')[0].replace(/\r$/, '');
}

const USAGE = `usage:
  npm run keys -- create --project NAME --plan free|developer|enterprise [--test] [--scopes a,b]
  npm run keys -- create --project NAME --plan PLAN --browser --origins https://shop.example,https://www.shop.example [--burst 100]
  npm run keys -- list [--project NAME]
  npm run keys -- revoke <key|key id>
  npm run keys -- account create --email E [--project P]...   (password from SVC_PASSWORD or stdin)
  npm run keys -- account add-member --email E --project P
  npm run keys -- account set-password --email E              (password from SVC_PASSWORD or stdin)`;

async function main(argv: string[]): Promise<number> {
  const [cmd, ...rest] = argv;
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: {
      project: { type: 'string', multiple: true },
      plan: { type: 'string' },
      test: { type: 'boolean', default: false },
      scopes: { type: 'string' },
      email: { type: 'string' },
      browser: { type: 'boolean', default: false },
      origins: { type: 'string' },
      burst: { type: 'string' },
    },
  });
  const project = values.project?.[0];
  if (!cmd || !['create', 'list', 'revoke', 'account'].includes(cmd)) {
    console.error(USAGE);
    return 2;
  }
  const config = loadConfig();
  process.env.LOG_LEVEL ??= 'silent';
  const store = await Store.open({ databaseUrl: config.databaseUrl, dbDir: join(config.dataDir, 'db'), max: 1 });
  try {
    if (cmd === 'account') {
      const sub = positionals[0];
      if (!values.email || !['create', 'add-member', 'set-password'].includes(sub)) {
        console.error(USAGE);
        return 2;
      }
      if (sub === 'create') {
        const a = await createAccount(store, values.email, await readPassword());
        console.log(`created account ${a.id} (${a.email})`);
        for (const p of values.project ?? []) {
          await store.query('INSERT INTO projects (id, name) VALUES ($1, $1) ON CONFLICT DO NOTHING', [p]);
          await addMember(store, p, a.id, 'owner');
          await audit(store, { project: p, actor: 'cli', action: 'member.add', target: a.email });
          console.log(`  owner of project ${p}`);
        }
      } else if (sub === 'add-member') {
        const a = await findAccount(store, values.email);
        if (!a || !project) { console.error(a ? USAGE : `no account ${values.email}`); return 1; }
        await store.query('INSERT INTO projects (id, name) VALUES ($1, $1) ON CONFLICT DO NOTHING', [project]);
        await addMember(store, project, a.id, 'owner');
        await audit(store, { project, actor: 'cli', action: 'member.add', target: a.email });
        console.log(`${a.email} is now a member of ${project}`);
      } else {
        if (!(await setPassword(store, values.email, await readPassword()))) { console.error(`no account ${values.email}`); return 1; }
        console.log(`password changed for ${values.email}; its sessions are ended`);
      }
      return 0;
    }
    if (cmd === 'create') {
      if (!project || !values.plan) {
        console.error(USAGE);
        return 2;
      }
      const scopes = values.scopes ? values.scopes.split(',').map((s) => s.trim()).filter(Boolean) : undefined;
      if (values.origins && !values.browser) {
        console.error('--origins is for browser keys: add --browser');
        return 2;
      }
      if (values.browser && !values.origins) {
        console.error('a browser key needs --origins https://your.site[,https://other.site]');
        return 2;
      }
      const origins = values.browser ? values.origins!.split(',').map((s) => s.trim()).filter(Boolean) : undefined;
      const burstRps = values.burst ? Number(values.burst) : undefined;
      const { key, row } = await createKey(store, { project, plan: values.plan as Plan, test: values.test!, scopes, origins, burstRps });
      await audit(store, { project, actor: 'cli', action: 'key.create', target: row.id, detail: { type: row.origins ? 'browser' : row.test ? 'test' : 'live', scopes: row.scopes, display: row.display } });
      console.log(`created ${row.id} (project ${row.project}, plan ${row.plan}, ${row.test ? 'test' : 'live'}, scopes ${row.scopes.join(',')}${row.origins ? `, browser key for ${row.origins.join(' ')}, burst ${row.burst_rps}/s` : ''})`);
      console.log('the key is shown only now:');
      console.log(key);
    } else if (cmd === 'list') {
      const rows = await listKeys(store, project);
      for (const r of rows) {
        const state = r.revoked_at ? `revoked ${new Date(r.revoked_at).toISOString()}` : 'active';
        console.log([r.id, r.display + '…', r.project, r.plan, r.test ? 'test' : 'live', r.scopes.join(','), r.origins ? `browser:${r.origins.join(' ')}` : 'server', new Date(r.created_at).toISOString(), state].join('\t'));
      }
      if (!rows.length) console.log('no keys');
    } else {
      const target = positionals[0];
      if (!target) {
        console.error(USAGE);
        return 2;
      }
      const r = await revokeKey(store, target);
      if (!r) {
        console.error(`no key matches ${target.startsWith('svc_') ? target.slice(0, 13) + '…' : target}`);
        return 1;
      }
      await audit(store, { project: r.project, actor: 'cli', action: 'key.revoke', target: r.id, detail: { display: r.display } });
      console.log(`revoked ${r.id} (${r.display}…, project ${r.project})`);
    }
    return 0;
  } catch (e) {
    console.error(`error: ${(e as Error).message}`);
    return 1;
  } finally {
    await store.close();
  }
}

process.exitCode = await main(process.argv.slice(2));
