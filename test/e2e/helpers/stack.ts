// A real desk with its capture proxy and its web UI, on 127.0.0.1 port 0, in a temporary data
// directory: what `wager-desk serve` runs, assembled in-process so a test can also look inside.
import { createDesk, type Desk } from '../../../src-main/core/desk';
import { startWebUi, type WebUi } from '../../../src-main/cli/web';
import { sign } from '../../../src-main/core/signing';
import { must } from '../../helpers/must';
import { tempDirForSuite } from '../../helpers/temp';

export const TEST_SECRET = 'e2e-shared-secret-0123456789';

export interface Stack {
  desk: Desk;
  ui: WebUi;
  /** http://127.0.0.1:PORT of the capture proxy. */
  proxyUrl: string;
  home: string;
  close(): Promise<void>;
}

/**
 * `database`: a team's PostgreSQL holding the exchange log and the profiles, instead of the data
 * directory's file; `keyFile`: the team's key every desk on it reads.
 */
export async function startStack(options: { rendererDir?: string; secret?: string | null; database?: string; keyFile?: string } = {}): Promise<Stack> {
  const { dir: home, remove } = tempDirForSuite('wager-desk-web-');
  const desk = createDesk({ home, ...(options.database ? { database: options.database } : {}), ...(options.keyFile ? { keyFile: options.keyFile } : {}) });
  const cleanups: Array<() => Promise<void> | void> = [() => desk.close(), remove];
  try {
    const secret = options.secret === undefined ? TEST_SECRET : options.secret;
    if (secret !== null) {
      must(await desk.saveProfile({ name: 'default', secret }));
      must(await desk.useProfile('default'));
    }
    const status = must(await desk.startProxy({ port: 0 }));
    if (!status.proxy.url) throw new Error('startProxy reported no url');
    const ui = await startWebUi(desk, { port: 0, ...(options.rendererDir ? { rendererDir: options.rendererDir } : {}) });
    cleanups.unshift(() => ui.close());
    return {
      desk,
      ui,
      proxyUrl: status.proxy.url,
      home,
      async close() {
        for (const c of cleanups) await c();
      },
    };
  } catch (err) {
    for (const c of cleanups) await c();
    throw err;
  }
}

/** Posts a callback to the proxy as the platform would: exact bytes, optional signature header. */
export async function sendCallback(
  proxyUrl: string,
  path: string,
  body: string | Uint8Array,
  signature: { secret: string } | { header: string } | null,
): Promise<Response> {
  const bytes = typeof body === 'string' ? new TextEncoder().encode(body) : body;
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (signature && 'secret' in signature) headers['x-server-authorization'] = sign(bytes, signature.secret);
  else if (signature) headers['x-server-authorization'] = signature.header;
  return fetch(`${proxyUrl}${path}`, { method: 'POST', headers, body: bytes });
}
