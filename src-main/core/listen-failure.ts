import { DeskFailure } from './result';

/** A listen() error as a sentence a person can act on, for the proxy and the web UI alike. */
export function listenFailure(err: NodeJS.ErrnoException, what: string, host: string, port: number): DeskFailure {
  if (err.code === 'EADDRINUSE')
    return new DeskFailure('proxy-error', `Port ${port} on ${host} is already in use (${what}); choose another port (0 picks a free one).`);
  if (err.code === 'EACCES') return new DeskFailure('proxy-error', `Not allowed to listen on ${host}:${port} (${what}; ports below 1024 need privileges).`);
  if (err.code === 'EADDRNOTAVAIL' || err.code === 'ENOTFOUND')
    return new DeskFailure('proxy-error', `Cannot listen on ${host} (${what}): no such address on this machine.`);
  return new DeskFailure('proxy-error', `${what} could not start on ${host}:${port}: ${err.message}`);
}
