// A loopback webhook receiver for tests: records every request (headers, raw body) and
// answers with whatever status the test scripts (default 200).
import http from 'node:http';

export interface Received { headers: http.IncomingHttpHeaders; body: string; at: number }

export interface Receiver {
  url: string;
  got: Received[];
  /** Status for the next requests, in order; 200 when the list is empty. */
  script: number[];
  close(): Promise<void>;
  waitFor(pred: (got: Received[]) => boolean, timeoutMs?: number): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const got: Received[] = [];
  const script: number[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      got.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() });
      const status = script.shift() ?? 200;
      res.writeHead(status, { 'content-type': 'text/plain' }).end(status < 300 ? 'ok' : 'nope');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    got, script,
    close: () => new Promise((r) => { server.closeAllConnections(); server.close(() => r()); }),
    async waitFor(pred, timeoutMs = 15_000) {
      const t0 = Date.now();
      while (!pred(got)) {
        if (Date.now() - t0 > timeoutMs) throw new Error(`receiver: condition not met in ${timeoutMs} ms (${got.length} received)`);
        await new Promise((r) => setTimeout(r, 25));
      }
    },
  };
}
