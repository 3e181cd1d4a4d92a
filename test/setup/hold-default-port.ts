// Vitest global setup: while the tests run, 127.0.0.1 on the desk's default proxy port is held by a
// listener that drops every connection. A test that starts a proxy without an explicit port (and so on
// the default) then fails with EADDRINUSE here, as it would on any machine where a desk is running,
// instead of passing here and failing there; a test that sends to the default port is refused. Where
// the port is taken already (a desk, another test run), that holder plays the same part.
import net from 'node:net';
import { DEFAULT_PROXY_HOST, DEFAULT_PROXY_PORT } from '../../src-main/core/proxy';

export default async function holdDefaultPort(): Promise<() => Promise<void>> {
  const holder = net.createServer((socket) => socket.destroy());
  let held = false;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;
  const tryToHold = (): Promise<boolean> =>
    new Promise<boolean>((resolve) => {
      // Each attempt takes its listeners off again: a retry every 50 ms must not pile them up on the server.
      const onError = (): void => {
        holder.off('listening', onListening);
        resolve(false);
      };
      const onListening = (): void => {
        holder.off('error', onError);
        resolve(true);
      };
      holder.once('error', onError);
      holder.once('listening', onListening);
      holder.listen({ host: DEFAULT_PROXY_HOST, port: DEFAULT_PROXY_PORT, exclusive: true });
    });
  held = await tryToHold();
  // Another holder (a desk, another test run on this machine) may let the port go while this run goes on:
  // take it over then, so the port stays taken for the whole run.
  const keepTrying = (): void => {
    retry = setTimeout(() => {
      if (stopped || held) return;
      void tryToHold().then((ok) => {
        held = ok;
        if (!ok) keepTrying();
      });
    }, 50);
    retry.unref();
  };
  if (!held) keepTrying();
  // The holder must not keep a finished run alive, nor be what a run waits on.
  holder.unref();
  return async () => {
    stopped = true;
    clearTimeout(retry);
    if (held) await new Promise<void>((resolve) => holder.close(() => resolve()));
  };
}
