// What a start of the proxy may ask for, and the checks and defaults that turn it into a config.
import { checkBaseUrl } from '../base-url';
import { DeskFailure } from '../result';
import type { GuardRails } from './env';

/** The default port: stable across runs, so the platform's callback URL need not change each time. */
export const DEFAULT_PROXY_PORT = 8787;
export const DEFAULT_PROXY_HOST = '127.0.0.1';

/**
 * Everything a start can set. DeskApi.startProxy exposes host, port and upstream; the rest is for the
 * core's own shells (the CLI's serve, tests): a secret that stays in memory, timeouts.
 */
export interface ProxyStartOptions extends Partial<GuardRails> {
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  /** A URL to forward to; null forces the sandbox; absent: the profile's upstream. */
  upstream?: string | null;
  /** Verify with this profile's secret and use its upstream (default: the active profile, looked up per request). */
  profile?: string;
  /** Verify with this secret instead of any profile's; kept in memory only. */
  secret?: { label: string; secret: string };
  /** Judge captures by this callback prefix instead of the profile's (the CLI's --callback-prefix). */
  callbackPrefix?: string;
  maxBodyBytes?: number;
  upstreamTimeoutMs?: number;
}

export function isLoopback(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  return h === 'localhost' || h === '::1' || /^127(\.\d{1,3}){3}$/.test(h) || h === '::ffff:127.0.0.1';
}

export function exposureWarning(host: string): string | null {
  return isLoopback(host)
    ? null
    : `The proxy listens on ${host}, which exposes it (and its sandbox operator) beyond this machine: anyone who can reach the port can send callbacks that are recorded and answered.`;
}

export function urlOf(host: string, port: number): string {
  const h = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  return `http://${h}:${port}`;
}

export function checkPort(port: unknown): number {
  if (typeof port !== 'number' || !Number.isInteger(port) || port < 0 || port > 65535) {
    throw new DeskFailure('bad-input', `The proxy port must be an integer from 0 to 65535; got ${String(port)}.`);
  }
  return port;
}

export function checkUpstream(upstream: string): URL {
  return new URL(checkBaseUrl('The upstream', upstream));
}

export function checkPositive(name: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw new DeskFailure('bad-input', `${name} must be a positive number; got ${String(value)}.`);
  }
  return value;
}
