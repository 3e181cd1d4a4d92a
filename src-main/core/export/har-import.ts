// HAR entries become inbound exchanges, as if the proxy had captured them: verified with the chosen
// profile's secret, inspected, with their key fields, and replayable. All or nothing: the file is
// read and checked whole first, then every row is written in one transaction.
import type { ExchangeKind, HarImportOptions, HarImportResult } from '../../shared/model';
import type { StoreAndSecrets as DeskContext } from '../secrets';
import { headerValue, SIGNATURE_HEADER } from '../outbound/headers';
import { extractKeyFields, inspect, kindOfPath } from '../protocol';
import { DeskFailure } from '../result';
import { checkSignature } from '../signing';
import { readHar, type HarReadEntry } from './har-read';
import { redactHeaders, storedSecrets } from '../redact';


function kindOf(path: string): ExchangeKind {
  const kind = kindOfPath(path);
  if (kind !== 'other') return kind;
  return /\/create-token\/?$/.test(path) ? 'token' : 'other';
}

function tagsFor(creator: string | null, origin: string | undefined): string[] {
  return [`har:${creator ?? 'unknown tool'}`, ...(origin ? [`file:${origin}`] : [])];
}

export function importHar(ctx: DeskContext, text: string, options: HarImportOptions = {}): HarImportResult {
  if (typeof text !== 'string') throw new DeskFailure('bad-input', 'The HAR must be given as text.');
  if (options.profile !== undefined) ctx.profile(options.profile); // an unknown name is an error, not the active profile
  const har = readHar(text);
  const candidates = ctx.signingCandidates(options.profile);
  const secrets = storedSecrets(ctx);
  const tags = tagsFor(har.creator, options.origin);

  const insertOne = (e: HarReadEntry): number => {
    const kind = kindOf(e.path);
    const signatureHeader = headerValue(e.headers, SIGNATURE_HEADER);
    // Only callbacks are signed; a page or a token request without the header has no verdict to give.
    const signed = kind === 'pay' || kind === 'results' || signatureHeader !== null;
    const { id } = ctx.store.exchanges.insert({
      direction: 'inbound',
      kind,
      origin: 'har-import',
      at: e.at,
      method: e.method,
      path: e.path,
      query: e.query,
      target: null,
      headers: redactHeaders(e.headers, secrets),
      body: e.body,
      size: e.body.length,
      truncated: false,
      remoteAddress: null,
      signature: signed ? checkSignature(e.body, signatureHeader, candidates) : null,
      findings: kind === 'pay' || kind === 'results' ? inspect(kind, e.body) : [],
      keys: extractKeyFields(e.body),
      sourceId: null,
      tags,
    });
    const durationMs = e.durationMs ?? 0;
    ctx.store.exchanges.complete(id, {
      response: e.response ? { ...e.response, headers: redactHeaders(e.response.headers, secrets) } : null,
      error: e.response ? null : e.error,
      durationMs,
      completedAt: new Date(Date.parse(e.at) + durationMs).toISOString(),
    });
    return id;
  };

  const ids = ctx.store.transaction(() => har.entries.map(insertOne));
  return { imported: ids.length, ids };
}
