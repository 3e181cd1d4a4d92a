// The stand-in operator for the proxy benchmark: answers every POST 200 {"status":"ok"} as fast as
// Node can, and counts them (GET /__bench/count), so the benchmark can check that every request a
// proxy took was forwarded. Runs in its own process: it must not share an event loop with a proxy.
import http from 'node:http';

const OK = Buffer.from('{"status":"ok"}');
let served = 0;

const server = http.createServer({ keepAliveTimeout: 60_000, noDelay: true }, (req, res) => {
  if (req.method === 'GET' && req.url === '/__bench/count') {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ served }));
    return;
  }
  req.on('data', () => {});
  req.on('end', () => {
    served++;
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': OK.length });
    res.end(OK);
  });
});
server.headersTimeout = 60_000;
server.listen(0, '127.0.0.1', () => process.stdout.write(`upstream: http://127.0.0.1:${server.address().port}\n`));
const stop = () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
