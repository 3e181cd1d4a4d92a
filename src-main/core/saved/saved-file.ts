// The file a team keeps saved requests in (in git, say): JSON, pretty-printed, keys in a fixed order and
// requests sorted by name, so that a change to one request is a small diff. A body is written as text
// when it is valid UTF-8, else as base64; either way it is read back to the same bytes. The file names
// the profile it was exported from and that profile's callback prefix (`from`), but an import puts the
// requests in the profile it is given, their paths moved under its prefix (retarget.ts). `from` is
// optional: a file written before it was added reads as before, and a reader that ignores it still can.
import { z } from 'zod';
import type { HeaderList, SavedRequest, SavedSignature } from '../../shared/model';
import { isCallbackPrefix } from '../protocol/callback-path';
import { DeskFailure } from '../result';

export const SAVED_FILE_FORMAT = 'wager-desk saved requests';
const VERSION = 1;

/** The profile a file was exported from, and where its callbacks are mounted. */
export interface SavedFileSource {
  profile: string;
  callbackPrefix: string;
}

/** What a file holds: its requests and, when it says, where they come from. */
export interface SavedFileContents {
  from: SavedFileSource | null;
  requests: SavedFileRequest[];
}

/** One request as the file holds it. */
export type SavedFileRequest = Pick<SavedRequest, 'name' | 'method' | 'path' | 'signature' | 'headers'> & { bodyBase64: string };

const utf8 = new TextDecoder('utf-8', { fatal: true });

function bodyOut(bodyBase64: string): { text: string } | { base64: string } {
  const bytes = Buffer.from(bodyBase64, 'base64');
  try {
    return { text: utf8.decode(bytes) };
  } catch {
    return { base64: bodyBase64 };
  }
}

export function savedFileText(requests: readonly SavedFileRequest[], from: SavedFileSource): string {
  const sorted = [...requests].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const file = {
    format: SAVED_FILE_FORMAT,
    version: VERSION,
    from: { profile: from.profile, callbackPrefix: from.callbackPrefix },
    requests: sorted.map((r) => ({ name: r.name, method: r.method, path: r.path, signature: r.signature, headers: r.headers, body: bodyOut(r.bodyBase64) })),
  };
  return `${JSON.stringify(file, null, 2)}\n`;
}

const header = z.tuple([z.string(), z.string()]);
const request = z.object({
  name: z.string().min(1).max(200),
  method: z.string().min(1).max(20),
  path: z.string().startsWith('/').max(8192),
  signature: z.enum(['resign', 'invalid', 'none']),
  headers: z.array(header).max(200),
  body: z.union([z.object({ text: z.string() }).strict(), z.object({ base64: z.base64() }).strict()]),
});
const source = z.object({ profile: z.string().max(200), callbackPrefix: z.string().refine(isCallbackPrefix, 'not a callback prefix') });
const file = z.object({
  format: z.literal(SAVED_FILE_FORMAT),
  version: z.literal(VERSION),
  from: source.optional(),
  requests: z.array(request).max(10_000),
});

export function parseSavedFile(text: string): SavedFileContents {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    // JSON.parse's message quotes the text around the fault: the file's first characters may be a secret.
    throw new DeskFailure('bad-input', `The saved requests file is not JSON (${text.length} characters; \`wager-desk saved export\` writes one).`);
  }
  const parsed = file.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new DeskFailure(
      'bad-input',
      `Not a saved requests file of this version: ${issue ? `${issue.path.join('.') || '(top)'}: ${issue.message}` : 'invalid'}.`,
    );
  }
  const requests = parsed.data.requests.map((r) => ({
    name: r.name,
    method: r.method,
    path: r.path,
    signature: r.signature as SavedSignature,
    headers: r.headers as HeaderList,
    bodyBase64: 'text' in r.body ? Buffer.from(r.body.text, 'utf8').toString('base64') : r.body.base64,
  }));
  return { from: parsed.data.from ?? null, requests };
}
