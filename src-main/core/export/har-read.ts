// Reads a HAR written by any tool (Chromium DevTools, HTTP Toolkit, mitmproxy, our own export, an
// operator's log) into plain requests, checking each field the import needs. The first problem stops
// the whole import with its place, e.g. "entries[3].request.method: missing", before anything is stored.
import type { HeaderList, SignatureReport } from '../../shared/model';
import { strictBase64 } from '../outbound/base64';
import { DeskFailure } from '../result';
import { splitUrl } from './request-url';

export interface HarReadEntry {
  index: number;
  at: string;
  method: string;
  url: string;
  path: string;
  query: string;
  headers: HeaderList;
  body: Buffer;
  /** request.bodySize as recorded: the bytes the tool saw on the wire; null where it is absent or unknown (-1, 0). */
  bodySize: number | null;
  /** bodySize disagrees with the bytes of postData.text: the recorder changed the body it wrote down. */
  bodySizeDiffers: boolean;
  /**
   * The Content-Length the request was sent with, where the HAR holds no body for it: the recorder kept
   * none (Chromium writes no postData for a Blob or stream body, and bodySize 0). Null otherwise.
   */
  bodyNotKept: number | null;
  durationMs: number | null;
  response: { status: number; headers: HeaderList; body: Buffer } | null;
  /** Why there is no response, where the HAR says. */
  error: string | null;
}

export interface HarRead {
  creator: string | null;
  entries: HarReadEntry[];
}

type Obj = Record<string, unknown>;

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

function fail(where: string, problem: string): never {
  throw new DeskFailure('bad-input', `Cannot import the HAR: ${where}: ${problem}.`);
}

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function obj(v: unknown, where: string): Obj {
  if (v === undefined || v === null) fail(where, 'missing');
  if (!isObj(v)) fail(where, 'not an object');
  return v;
}

function str(v: unknown, where: string): string {
  if (v === undefined || v === null) fail(where, 'missing');
  if (typeof v !== 'string') fail(where, `expected a string, got ${Array.isArray(v) ? 'an array' : typeof v}`);
  return v;
}

function headerList(v: unknown, where: string): HeaderList {
  if (v === undefined || v === null) fail(where, 'missing');
  if (!Array.isArray(v)) fail(where, 'not an array');
  const out: HeaderList = [];
  v.forEach((h, j) => {
    const at = `${where}[${j}]`;
    const header = obj(h, at);
    const name = str(header.name, `${at}.name`);
    const value = str(header.value, `${at}.value`);
    if (name === '') fail(`${at}.name`, 'empty');
    // HTTP/2 pseudo-headers (:authority, :path) are the request line, not headers; a replay cannot send them.
    if (!name.startsWith(':')) out.push([name, value]);
  });
  return out;
}

/** Text as bytes: UTF-8, or base64 where the HAR says so. */
function decodeText(text: string, encoding: unknown, where: string): Buffer {
  if (encoding === undefined || encoding === null || encoding === '') return Buffer.from(text, 'utf8');
  if (encoding !== 'base64') fail(where, `unsupported encoding ${JSON.stringify(encoding)} (only base64 is known)`);
  return strictBase64(text) ?? fail(where, 'not valid base64');
}

function requestBody(req: Obj, where: string): Buffer {
  if (req.postData !== undefined && req.postData !== null) {
    const data = obj(req.postData, `${where}.postData`);
    if (data.text === undefined) {
      if (data.params !== undefined) fail(`${where}.postData.text`, 'missing (only params are given, so the exact bytes are unknown)');
      return Buffer.alloc(0);
    }
    const text = str(data.text, `${where}.postData.text`);
    return decodeText(text, data._encoding ?? data.encoding, `${where}.postData.text`);
  }
  // HTTP Toolkit writes bodies that are not UTF-8 as _content (base64) beside a _requestBodyStatus flag.
  if (isObj(req._content) && typeof req._content.text === 'string') {
    return decodeText(req._content.text, req._content.encoding, `${where}._content.text`);
  }
  if (typeof req._requestBodyStatus === 'string' && req._requestBodyStatus.startsWith('discarded')) {
    fail(`${where}._requestBodyStatus`, `the tool left the body out of the HAR (${req._requestBodyStatus}); export it again with bodies included`);
  }
  if (typeof req.bodySize === 'number' && req.bodySize > 0) {
    fail(`${where}.postData`, `missing, though bodySize says ${req.bodySize} bytes were sent; export the HAR with content`);
  }
  return Buffer.alloc(0);
}

/** The request's Content-Length as a number, or null where it is absent or not a plain count. */
function declaredLength(headers: HeaderList): number | null {
  const value = headers.find(([n]) => n.toLowerCase() === 'content-length')?.[1].trim();
  return value !== undefined && /^\d{1,15}$/.test(value) ? Number(value) : null;
}

function readResponse(v: unknown, where: string): { response: HarReadEntry['response']; error: string | null } {
  if (v === undefined || v === null) return { response: null, error: 'The HAR entry has no response.' };
  const res = obj(v, where);
  const status = res.status;
  if (typeof status !== 'number' || !Number.isInteger(status) || status < 0 || status > 999) fail(`${where}.status`, 'not an HTTP status');
  // Status 0 is how browsers and proxies write "no answer" (refused, aborted, blocked).
  if (status === 0) return { response: null, error: typeof res._error === 'string' && res._error ? res._error : 'No response (status 0 in the HAR).' };
  const headers = headerList(res.headers, `${where}.headers`);
  let body: Buffer = Buffer.alloc(0);
  if (res.content !== undefined && res.content !== null) {
    const content = obj(res.content, `${where}.content`);
    if (content.text !== undefined && content.text !== null) {
      body = decodeText(str(content.text, `${where}.content.text`), content.encoding, `${where}.content.text`);
    }
  }
  return { response: { status, headers, body }, error: null };
}

function readEntry(v: unknown, index: number): HarReadEntry {
  const where = `entries[${index}]`;
  const entry = obj(v, where);
  const started = str(entry.startedDateTime, `${where}.startedDateTime`);
  const time = Date.parse(started);
  if (!Number.isFinite(time)) fail(`${where}.startedDateTime`, `not a date: ${JSON.stringify(started)}`);
  const req = obj(entry.request, `${where}.request`);
  const method = str(req.method, `${where}.request.method`);
  if (method === '') fail(`${where}.request.method`, 'missing');
  if (!TOKEN.test(method)) fail(`${where}.request.method`, `not an HTTP method: ${JSON.stringify(method)}`);
  const url = str(req.url, `${where}.request.url`);
  const parts = /^https?:\/\//i.test(url) ? splitUrl(url) : null;
  if (!parts) fail(`${where}.request.url`, `not an absolute http or https URL: ${JSON.stringify(url)}`);
  const headers = headerList(req.headers, `${where}.request.headers`);
  const body = requestBody(req, `${where}.request`);
  // Tools write 0 or -1 when they did not count; only a positive count can disagree with the text.
  const bodySize = typeof req.bodySize === 'number' && Number.isInteger(req.bodySize) && req.bodySize > 0 ? req.bodySize : null;
  const { response, error } = readResponse(entry.response, `${where}.response`);
  const duration = entry.time;
  const declared = declaredLength(headers);
  const hasPostText = isObj(req.postData) && typeof req.postData.text === 'string';
  return {
    index,
    at: new Date(time).toISOString(),
    method,
    url,
    path: parts.path,
    query: parts.query,
    headers,
    body,
    bodySize,
    bodySizeDiffers: bodySize !== null && bodySize !== body.length,
    bodyNotKept: body.length === 0 && !hasPostText && declared !== null && declared > 0 ? declared : null,
    durationMs: typeof duration === 'number' && Number.isFinite(duration) && duration >= 0 ? duration : null,
    response,
    error,
  };
}

export function readHar(text: string): HarRead {
  let root: unknown;
  try {
    root = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (err) {
    throw new DeskFailure('bad-input', `Cannot import the HAR: the file is not JSON (${(err as Error).message}).`);
  }
  const log = obj(obj(root, '(the file)').log, 'log');
  if (log.entries === undefined || log.entries === null) fail('log.entries', 'missing');
  if (!Array.isArray(log.entries)) fail('log.entries', 'not an array');
  const creator = isObj(log.creator) && typeof log.creator.name === 'string' && log.creator.name !== '' ? log.creator.name : null;
  return { creator, entries: log.entries.map((e, i) => readEntry(e, i)) };
}

type RecordedCounts = Pick<HarReadEntry, 'body' | 'bodySize' | 'bodySizeDiffers'> & Partial<Pick<HarReadEntry, 'bodyNotKept'>>;

/** "the recorder kept no body: Content-Length N, no postData in the HAR" where the HAR holds none of a sent body. */
export function recorderKeptNoBodyNote(entry: RecordedCounts): string | null {
  if (entry.bodyNotKept === undefined || entry.bodyNotKept === null) return null;
  return `the recorder kept no body: the request was sent with Content-Length ${entry.bodyNotKept}, and the HAR has no postData for it (Chromium writes none for a Blob or stream body)`;
}

/** "the recorder changed the body: bodySize N, text M bytes" where the HAR's own counts disagree, else null. */
export function recorderChangeNote(entry: RecordedCounts): string | null {
  if (!entry.bodySizeDiffers || entry.bodySize === null) return null;
  return `the recorder changed the body: bodySize ${entry.bodySize}, text ${entry.body.length} bytes`;
}

/**
 * A signature verdict of a HAR entry whose recorder changed the body: a mismatch is then explained by
 * the recording (the bytes signed were not the bytes written down), not by the secret. Where a variant
 * of the recorded text reproduces the signature, that variant is most likely what was sent.
 */
export function withRecorderNote(report: SignatureReport, entry: RecordedCounts): SignatureReport {
  const notKept = recorderKeptNoBodyNote(entry);
  if (notKept !== null) return withNoBodyNote(report, notKept);
  const note = recorderChangeNote(entry);
  if (note === null) return report;
  const sentence = `${note[0]!.toUpperCase()}${note.slice(1)}; the signature was computed over the bytes sent, which the HAR no longer holds.`;
  const notes = [...report.notes, sentence];
  if (report.verdict !== 'mismatch') return { ...report, notes };
  const found = report.diagnosis?.match;
  return {
    ...report,
    notes,
    diagnosis: {
      summary: found
        ? `${sentence} ${found.label[0]!.toUpperCase()}${found.label.slice(1)} reproduces the signature: most likely the bytes that were sent.`
        : `${sentence} The mismatch says nothing about the secret: capture the request with the proxy, or export the HAR with its exact bytes.`,
      match: { variant: 'recorder-changed-body', label: note },
      tried: report.diagnosis?.tried ?? [],
    },
  };
}

/**
 * The verdict of an entry whose recorder kept no body: whatever the signature, the HAR cannot tell
 * whether it matched the bytes sent, so a mismatch is explained by the recording and never by the secret.
 */
function withNoBodyNote(report: SignatureReport, note: string): SignatureReport {
  const sentence = `${note[0]!.toUpperCase()}${note.slice(1)}.`;
  const notes = [...report.notes, sentence];
  if (report.verdict !== 'mismatch') return { ...report, notes };
  return {
    ...report,
    notes,
    diagnosis: {
      summary: `${sentence} The signature was computed over bytes this file does not hold, so the mismatch says nothing about the secret: capture the request with the proxy, or record it with a tool that keeps the body.`,
      match: { variant: 'recorder-kept-no-body', label: 'the recorder kept no body' },
      tried: [],
    },
  };
}
