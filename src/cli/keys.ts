// `npm run keys -- create|list|revoke`: manage API keys. Works while the server runs,
// embedded database included (it connects through the server's PGlite socket).
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../core/config.ts';
import { Store } from '../store/index.ts';
import { createKey, listKeys, revokeKey } from '../auth/keys.ts';
import type { Plan } from '../auth/scopes.ts';

const USAGE = `usage:
  npm run keys -- create --project NAME --plan free|developer|enterprise [--test] [--scopes a,b]
  npm run keys -- create --project NAME --plan PLAN --browser --origins https://shop.example,https://www.shop.example [--burst 100]
  npm run keys -- list [--project NAME]
  npm run keys -- revoke <key|key id>`;

async function main(argv: string[]): Promise<number> {
  const [cmd, ...rest] = argv;
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: {
      project: { type: 'string' },
      plan: { type: 'string' },
      test: { type: 'boolean', default: false },
      scopes: { type: 'string' },
      browser: { type: 'boolean', default: false },
      origins: { type: 'string' },
      burst: { type: 'string' },
    },
  });
  if (!cmd || !['create', 'list', 'revoke'].includes(cmd)) {
    console.error(USAGE);
    return 2;
  }
  const config = loadConfig();
  process.env.LOG_LEVEL ??= 'silent';
  const store = await Store.open({ databaseUrl: config.databaseUrl, dbDir: join(config.dataDir, 'db'), max: 1 });
  try {
    if (cmd === 'create') {
      if (!values.project || !values.plan) {
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
      const { key, row } = await createKey(store, { project: values.project, plan: values.plan as Plan, test: values.test!, scopes, origins, burstRps });
      console.log(`created ${row.id} (project ${row.project}, plan ${row.plan}, ${row.test ? 'test' : 'live'}, scopes ${row.scopes.join(',')}${row.origins ? `, browser key for ${row.origins.join(' ')}, burst ${row.burst_rps}/s` : ''})`);
      console.log('the key is shown only now:');
      console.log(key);
    } else if (cmd === 'list') {
      const rows = await listKeys(store, values.project);
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
