// The floor of the proxy benchmark: the least a Node reverse proxy can do. No logging, no buffering,
// no checks: each request is piped to the upstream over a keep-alive agent and the answer piped back.
// Usage: node bare-forwarder.mjs UPSTREAM_URL   (prints "proxy: http://127.0.0.1:PORT")
import http from 'node:http';

const upstream = new URL(process.argv[2] ?? '');
const agent = new http.Agent({ keepAlive: true, scheduling: 'lifo' });
const HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'te', 'trailer', 'proxy-connection']);

const server = http.createServer({ keepAliveTimeout: 60_000, noDelay: true }, (req, res) => {
  const headers = {};
  for (const [name, value] of Object.entries(req.headers)) if (!HOP.has(name)) headers[name] = value;
  headers.host = upstream.host;
  const up = http.request({ agent, hostname: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers }, (upRes) => {
    const out = {};
    for (const [name, value] of Object.entries(upRes.headers)) if (!HOP.has(name)) out[name] = value;
    res.writeHead(upRes.statusCode ?? 502, out);
    upRes.pipe(res);
  });
  up.on('error', () => {
    if (!res.headersSent) res.writeHead(502);
    res.end();
  });
  req.pipe(up);
});
server.headersTimeout = 60_000;
server.listen(0, '127.0.0.1', () => process.stdout.write(`proxy: http://127.0.0.1:${server.address().port}\n`));
const stop = () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
  agent.destroy();
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
