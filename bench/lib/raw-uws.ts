// The baseline: a bare uWebSockets.js app answering a constant JSON body.
import uWS from 'uWebSockets.js';
const port = Number(process.argv[2] ?? 9001);
uWS.App()
  .get('/*', (res) => { res.writeHeader('Content-Type', 'application/json').end('{"ok":true}'); })
  .listen('127.0.0.1', port, (s) => { if (!s) process.exit(1); console.log('ready'); });
