// HAR entries become inbound exchanges, as if the proxy had captured them: judged by the same judge
// (verified with the chosen profile's secret, inspected, with their key fields, every stored secret
// redacted), and replayable. All or nothing: the file is read and checked whole first, then every row
// is written in one transaction.
import type { HarImportOptions, HarImportResult } from '../../shared/model';
import { judge, type JudgingContext } from '../capture';
import { redactBytes, redactHeaders, redactText } from '../redact';
import { DeskFailure } from '../result';
import type { CaptureRows } from '../store/contract/capture-writer';
import type { ExchangeLog } from '../store/contract/exchange-log';
import { readHar, withRecorderNote, type HarReadEntry } from './har-read';

/** What an import needs: the log its rows go to (all or nothing), and what they are judged with. */
export interface HarImportDeps extends JudgingContext {
  log: Pick<ExchangeLog, 'write'>;
}

function tagsFor(creator: string | null, origin: string | undefined): string[] {
  return [`har:${creator ?? 'unknown tool'}`, ...(origin ? [`file:${origin}`] : [])];
}

/** Imports the HAR text; `options.profile` is resolved by the caller into `deps.candidates`. */
export async function importHar(deps: HarImportDeps, text: string, options: HarImportOptions = {}): Promise<HarImportResult> {
  if (typeof text !== 'string') throw new DeskFailure('bad-input', 'The HAR must be given as text.');
  const har = readHar(text);
  const tags = tagsFor(har.creator, options.origin);
  const { secrets } = deps;

  const insertOne = (rows: CaptureRows, e: HarReadEntry): number => {
    const { row } = judge(
      {
        direction: 'inbound',
        origin: 'har-import',
        at: e.at,
        method: e.method,
        path: e.path,
        query: e.query,
        target: null,
        headers: e.headers,
        body: e.body,
        size: e.body.length,
        truncated: false,
        remoteAddress: null,
        sourceId: null,
        tags,
      },
      deps,
    );
    // A recorder that changed the body (its own bodySize says so) explains a mismatch better than the secret.
    if (row.signature) row.signature = withRecorderNote(row.signature, e);
    const id = rows.record(row);
    const durationMs = e.durationMs ?? 0;
    rows.finish(id, {
      response: e.response
        ? { status: e.response.status, headers: redactHeaders(e.response.headers, secrets), body: redactBytes(e.response.body, secrets).bytes }
        : null,
      error: e.response ? null : e.error === null ? null : redactText(e.error, secrets),
      durationMs,
      completedAt: new Date(Date.parse(e.at) + durationMs).toISOString(),
    });
    return id;
  };

  const ids = await deps.log.write((rows) => har.entries.map((e) => insertOne(rows, e)), har.entries.length);
  return { imported: ids.length, ids };
}
