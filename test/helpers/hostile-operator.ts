// A stand-in operator whose answers try to break the report files: markup that would run or load
// something if a page showed it as HTML, the end of an XML element and of a CDATA section, and
// control characters XML cannot hold. It accepts every pay (with that note) and answers every result
// 500 with it, so a check run against it has passes, failures and skipped checks to export.
import { createServer } from 'node:http';
import { closeServer, listen } from './servers';

export const HOSTILE_NOTE =
  '</failure></testcase>]]><script>document.title="owned"</script><img src="http://198.51.100.7/x.png" onerror="alert(1)">&amp;\u0001\u001b';

export interface HostileOperator {
  url: string;
  close(): Promise<void>;
}

export async function startHostileOperator(): Promise<HostileOperator> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const pay = (req.url ?? '').endsWith('/pay');
      res.writeHead(pay ? 200 : 500, { 'content-type': 'application/json' });
      res.end(JSON.stringify(pay ? { ok: true, note: HOSTILE_NOTE } : { errors: [{ code: HOSTILE_NOTE, isClientSafe: true }] }));
    });
  });
  return { url: await listen(server), close: () => closeServer(server) };
}
