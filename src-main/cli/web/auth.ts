// The web mode's gatekeeping: who may talk to the API. Three independent checks, each answering a
// different attack: the token (any local process or page that did not get the printed URL), the Host
// header (DNS rebinding: a foreign name that resolves to 127.0.0.1), the Origin header (a foreign page
// in the user's browser sending requests to the loopback port).
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** 32 random bytes (256 bits) as URL-safe base64: fits a URL fragment without escaping. */
export function newAccessToken(): string {
  return randomBytes(32).toString('base64url');
}

/** The host names a loopback page can be reached by; the port is checked too. */
const LOOPBACK_NAMES = ['127.0.0.1', 'localhost'] as const;

export function allowedHosts(port: number): Set<string> {
  return new Set(LOOPBACK_NAMES.map((name) => `${name}:${port}`));
}

export function allowedOrigins(port: number): Set<string> {
  return new Set(LOOPBACK_NAMES.map((name) => `http://${name}:${port}`));
}

/** True when the Host header names this server by a loopback name and its port, exactly. */
export function hostAllowed(req: IncomingMessage, hosts: ReadonlySet<string>): boolean {
  const host = req.headers.host;
  return typeof host === 'string' && hosts.has(host.toLowerCase());
}

/**
 * A request without Origin (a navigation, curl) passes; one with an Origin passes only when it is this
 * server's own. "null" (sandboxed frames, file://) is foreign.
 */
export function originAllowed(req: IncomingMessage, origins: ReadonlySet<string>): boolean {
  const origin = req.headers.origin;
  if (origin === undefined) return true;
  return origins.has(origin.toLowerCase());
}

/** Compares the bearer token in constant time; lengths differ only for a wrong token, so that leaks nothing. */
export function bearerMatches(req: IncomingMessage, expected: Buffer): boolean {
  const header = req.headers.authorization;
  if (typeof header !== 'string') return false;
  const match = /^Bearer ([A-Za-z0-9_-]{1,512})$/.exec(header);
  if (!match?.[1]) return false;
  const given = Buffer.from(match[1], 'utf8');
  if (given.length !== expected.length) return false;
  return timingSafeEqual(given, expected);
}
