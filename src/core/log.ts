// One JSON line per event on stdout (errors on stderr). Never log a key or a body.
type Fields = Record<string, unknown>;
const quiet = () => process.env.LOG_LEVEL === 'silent';
function line(level: string, msg: string, f?: Fields) {
  if (quiet()) return;
  const s = JSON.stringify({ t: new Date().toISOString(), level, msg, ...f });
  if (level === 'error') process.stderr.write(s + '\n');
  else process.stdout.write(s + '\n');
}
export const log = {
  info: (msg: string, f?: Fields) => line('info', msg, f),
  warn: (msg: string, f?: Fields) => line('warn', msg, f),
  error: (msg: string, f?: Fields) => line('error', msg, f),
};
