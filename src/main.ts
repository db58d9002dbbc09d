// `npm start`: build the default datasets when missing, then serve.
import { loadConfig } from './core/config.ts';
import { startServer } from './app.ts';
import { ensureDefaultData } from '../graph-build/index.ts';
import { log } from './core/log.ts';

const config = loadConfig();
if (!config.skipBuild) await ensureDefaultData(config);
const app = await startServer(config);

if (app.bootstrapped) {
  // Shown once, on the first start of an empty database; only hashes are stored.
  process.stdout.write(
    `\nFirst start: created project "default" with two keys (shown only now, store them):\n` +
      `  test key (sandbox): ${app.bootstrapped.test}\n` +
      `  live key:           ${app.bootstrapped.live}\n` +
      `Try: curl -H "Authorization: Bearer ${app.bootstrapped.test}" "${config.baseUrl}/api/v1/geocode?q=Lagos"\n\n`,
  );
}

let stopping = false;
for (const sig of ['SIGTERM', 'SIGINT'] as const) {
  process.on(sig, () => {
    if (stopping) return;
    stopping = true;
    log.info('shutdown', { signal: sig });
    app.close().then(
      () => process.exit(0),
      (e) => { log.error('shutdown_failed', { error: String(e) }); process.exit(1); },
    );
  });
}
process.on('SIGHUP', () => {
  log.info('reload', { signal: 'SIGHUP' });
  app.ctx.pool.reload().then(
    (r) => log.info('reload_done', r),
    (e) => log.error('reload_failed', { error: String(e) }),
  );
});
