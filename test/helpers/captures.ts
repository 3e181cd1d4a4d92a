// Captured callbacks in a desk's real exchange log, judged by the same judge as the capture proxy's
// (headers, verdict against the desk's own secrets, findings, key fields, redaction) without running
// the proxy: for tests about what happens to captures afterwards (replay, drafts, exports).
import { judge } from '../../src-main/core/capture';
import type { Desk } from '../../src-main/core/desk';
import { storedSecrets } from '../../src-main/core/redact';
import { sign } from '../../src-main/core/signing';
import type { HeaderList } from '../../src-main/shared/model';
import { featureDepsOf, logOf, secretsOf } from './desk';

export interface CaptureInput {
  body: Uint8Array | string;
  /** Default /platform/pay. */
  path?: string;
  query?: string;
  /** { secret }: signed with it; a string: that header value as it is; null or absent: no signature header. */
  signature?: { secret: string } | string | null;
  /** After the proxy's usual Host, Content-Type, Content-Length and signature headers. */
  extraHeaders?: HeaderList;
  response?: { status: number; headers?: HeaderList; body?: Uint8Array | string } | null;
  error?: string;
  at?: string;
  /** Default 127.0.0.1:8080. */
  host?: string;
  /** Whose capture (verified with its secret); default: the active profile, as a proxy serving it records it. null: unassigned. */
  profile?: string | null;
}

const bytesOf = (b: Uint8Array | string): Buffer => (typeof b === 'string' ? Buffer.from(b, 'utf8') : Buffer.from(b));

/** Records one capture through the desk's log (completed when a response or error is given); returns its id. */
export async function capture(desk: Desk, input: CaptureInput): Promise<number> {
  const body = bytesOf(input.body);
  const path = input.path ?? '/platform/pay';
  const profile = input.profile === undefined ? (secretsOf(desk).profile()?.name ?? null) : input.profile;
  const signature = input.signature == null ? null : typeof input.signature === 'string' ? input.signature : sign(body, input.signature.secret);
  const headers: HeaderList = [
    ['Host', input.host ?? '127.0.0.1:8080'],
    ['Content-Type', 'application/json'],
    ['Content-Length', String(body.length)],
    ...(signature !== null ? ([['x-server-authorization', signature]] as HeaderList) : []),
    ...(input.extraHeaders ?? []),
  ];
  const { row } = judge(
    {
      direction: 'inbound',
      origin: 'proxy',
      at: input.at ?? new Date().toISOString(),
      method: 'POST',
      path,
      query: input.query ?? '',
      target: null,
      headers,
      body,
      size: body.length,
      truncated: false,
      remoteAddress: '127.0.0.1',
      sourceId: null,
    },
    {
      candidates: secretsOf(desk).signingCandidates(profile ?? undefined),
      secrets: storedSecrets(featureDepsOf(desk)),
      profile,
    },
  );
  const r = input.response;
  const completion =
    input.response !== undefined || input.error !== undefined
      ? {
          response: r ? { status: r.status, headers: r.headers ?? [], body: bytesOf(r.body ?? '') } : null,
          error: input.error ?? null,
          durationMs: 3.5,
          completedAt: new Date().toISOString(),
        }
      : null;
  return logOf(desk).write((rows) => {
    const id = rows.record(row);
    if (completion) rows.finish(id, completion);
    return id;
  });
}
