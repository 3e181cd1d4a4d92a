// What a start of the proxy may ask for, and the checks and defaults that turn it into a config.
import { checkBaseUrl } from '../base-url';
import { callbackPath } from '../protocol/callback-path';
import { DeskFailure } from '../result';
import type { CallbackUrls, ProxyConfig } from '../../shared/model';

/** The default port: stable across runs, so the platform's callback URL need not change each time. */
export const DEFAULT_PROXY_PORT = 8787;
export const DEFAULT_PROXY_HOST = '127.0.0.1';

/**
 * What a start may set: a part of the proxy's configuration (shared/model ProxyConfig). What it leaves out
 * stays as the last start set it, else at the desk's default.
 */
export type ProxyStartOptions = Partial<ProxyConfig>;

export function isLoopback(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  return h === 'localhost' || h === '::1' || /^127(\.\d{1,3}){3}$/.test(h) || h === '::ffff:127.0.0.1';
}

export function exposureWarning(host: string): string | null {
  return isLoopback(host)
    ? null
    : `The proxy listens on ${host}, which exposes it (and its sandbox operator) beyond this machine: anyone who can reach the port can send callbacks that are recorded and answered.`;
}

export function urlOf(host: string, port: number, scheme: 'http' | 'https' = 'http'): string {
  const h = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  return `${scheme}://${h}:${port}`;
}

/** The public URL as a base the callback paths are appended to (no trailing slash). */
export function checkPublicUrl(url: string): string {
  return checkBaseUrl('The public URL', url);
}

/** The callback URLs to configure in the platform: the base (public URL, else the proxy's own) + prefix + /pay, /results. */
export function callbackUrlsOf(base: string, prefix: string): CallbackUrls {
  const root = base.replace(/\/+$/, '');
  return { base, pay: `${root}${callbackPath(prefix, 'pay')}`, results: `${root}${callbackPath(prefix, 'results')}` };
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
