// Raw HTTP requests with full control of the headers (fetch refuses to set Host and Origin).
import { request } from 'node:http';
import type { Result } from '../../../src-main/shared/model';
import { readAnswer } from '../../../src-renderer/api/api-answer';

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export function rawRequest(port: number, options: { method?: string; path: string; headers?: Record<string, string>; body?: string }): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: options.method ?? 'GET',
        path: options.path,
        headers: { host: `127.0.0.1:${port}`, ...options.headers },
        setHost: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

/** A POST /api/<method> as the page sends it. */
export function apiCall(port: number, method: string, args: unknown[], headers: Record<string, string>): Promise<RawResponse> {
  return rawRequest(port, { method: 'POST', path: `/api/${method}`, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(args) });
}

/** The Result an API answer carries, read as the page reads it (src-renderer/api/api-answer.ts). */
export function resultOf(res: RawResponse, method = 'a method'): Promise<Result<unknown>> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(res.headers)) {
    for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, v);
  }
  return readAnswer(method, new Response(res.body, { status: res.status, headers }));
}

export function tokenOf(url: string): string {
  const match = /#token=([A-Za-z0-9_-]+)$/.exec(url);
  if (!match?.[1]) throw new Error(`no token in ${url}`);
  return match[1];
}
