// Saved requests: the composer's draft kept under a name in a profile, listed, removed, and written to
// or read from the file a team keeps (saved/saved-file.ts). What is stored never holds a secret in
// clear: the signature header is dropped (it is computed when the request is sent), and a stored
// secret typed into a header, the path or the body is redacted as everywhere else.
import type { DeskApi } from '../../shared/desk-api';
import { SIGNATURE_HEADER, type Draft, type SavedRequest, type SavedSignature, type SignatureMode } from '../../shared/model';
import { redactBytes, redactHeaders, redactText, redactUrlPart, storedSecrets } from '../redact';
import { DeskFailure } from '../result';
import { attempt } from './attempt';
import { DEFAULT_CALLBACK_PREFIX } from '../protocol/callback-path';
import { retargetPath } from '../saved/retarget';
import { parseSavedFile, savedFileText, type SavedFileContents, type SavedFileRequest } from '../saved/saved-file';
import type { DeskContext } from './context';

const SAVED_MODES: readonly SignatureMode[] = ['resign', 'invalid', 'none'];
const MARKER = /\[redacted sha256:[0-9a-f]{8}\]/;

type SavedMethods = 'saveRequest' | 'listSavedRequests' | 'removeSavedRequest' | 'exportSavedRequests' | 'importSavedRequests';

export function savedPart(ctx: DeskContext): Pick<DeskApi, SavedMethods> {
  // The log's: a team's database keeps them beside the team's profiles.
  const saved = ctx.log.saved;

  const profileOf = (name: string | undefined): string => {
    const chosen = name ?? ctx.store.profiles.activeName();
    if (chosen === null) throw new DeskFailure('bad-input', 'Requests are saved in a profile: create one first (profile set NAME).');
    if (ctx.store.profiles.get(chosen) === null) throw new DeskFailure('not-found', `No profile named "${chosen}".`);
    return chosen;
  };

  const prefixOf = (name: string): string => ctx.store.profiles.get(name)?.callbackPrefix ?? DEFAULT_CALLBACK_PREFIX;

  /**
   * Every field with each stored secret replaced by its marker: what is saved, and what a list or an
   * export shows (a request saved before a secret was stored gets it redacted on the way out).
   */
  const redacted = <R extends SavedFileRequest>(r: R, secrets: readonly string[]): R => {
    const method = redactText(r.method, secrets);
    const body = redactBytes(Buffer.from(r.bodyBase64, 'base64'), secrets);
    return {
      ...r,
      name: redactText(r.name, secrets),
      // Upper-cased only when it holds no secret and no marker: a marker is kept as written.
      method: method === r.method && !MARKER.test(method) ? method.toUpperCase() : method,
      path: redactUrlPart(r.path, secrets),
      headers: redactHeaders(r.headers, secrets),
      bodyBase64: body.found.length > 0 ? Buffer.from(body.bytes).toString('base64') : r.bodyBase64,
    };
  };

  /** The request as it may be stored: no signature header, no stored secret in clear. */
  const storable = (profile: string, r: SavedFileRequest, secrets = storedSecrets(ctx)): SavedRequest => {
    const name = r.name.trim();
    if (name === '' || name.length > 200) throw new DeskFailure('bad-input', 'A saved request needs a name (at most 200 characters).');
    // The path is quoted only once redacted.
    if (!r.path.startsWith('/')) throw new DeskFailure('bad-input', `The path "${redactUrlPart(r.path, secrets)}" must start with "/".`);
    const headers = r.headers.filter(([k]) => k.toLowerCase() !== SIGNATURE_HEADER);
    return {
      profile,
      ...redacted({ name, method: r.method, path: r.path, headers, bodyBase64: r.bodyBase64, signature: r.signature }, secrets),
      savedAt: new Date().toISOString(),
    };
  };

  /** A profile's saved requests as they may be shown or exported. */
  const listed = async (profile: string): Promise<SavedRequest[]> => {
    const secrets = storedSecrets(ctx);
    return (await saved.list(profile)).map((r) => redacted(r, secrets));
  };

  const modeOf = (mode: SignatureMode): SavedSignature => {
    if (!SAVED_MODES.includes(mode)) {
      throw new DeskFailure(
        'bad-input',
        `A saved request is signed when it is sent: save it with resign, invalid or none (${mode} would need ${mode === 'keep' ? 'a stored signature' : 'a secret the desk does not keep'}).`,
      );
    }
    return mode as SavedSignature;
  };

  return {
    saveRequest: (input) =>
      attempt(async () => {
        const draft: Draft = input.draft;
        const request = storable(profileOf(input.profile), { name: input.name, ...draft, signature: modeOf(input.signature) });
        await saved.put([request]);
        return request;
      }),
    listSavedRequests: (profile) => attempt(() => listed(profileOf(profile))),
    removeSavedRequest: (name, profile) =>
      attempt(async () => {
        const chosen = profileOf(profile);
        if (!(await saved.remove(chosen, name))) throw new DeskFailure('not-found', `No saved request "${name}" in profile ${chosen}.`);
        return null;
      }),
    exportSavedRequests: (profile) =>
      attempt(async () => {
        const chosen = profileOf(profile);
        return savedFileText(await listed(chosen), { profile: redactText(chosen, storedSecrets(ctx)), callbackPrefix: prefixOf(chosen) });
      }),
    importSavedRequests: (text, profile) =>
      attempt(async () => {
        const chosen = profileOf(profile);
        const secrets = storedSecrets(ctx);
        let parsed: SavedFileContents;
        try {
          parsed = parseSavedFile(text);
        } catch (err) {
          // A refusal may name a key of the file: quoted only once redacted.
          if (err instanceof DeskFailure) throw new DeskFailure(err.code, redactText(err.message, secrets));
          throw err;
        }
        const target = prefixOf(chosen);
        const known = [DEFAULT_CALLBACK_PREFIX, ...ctx.store.profiles.list().map((p) => p.callbackPrefix)];
        const moved = parsed.requests.map((r) => ({ request: r, path: retargetPath(r.path, parsed.from?.callbackPrefix ?? null, known, target) }));
        const requests = moved.map(({ request, path }) => storable(chosen, { ...request, path: path.to }, secrets));
        await saved.put(requests);
        const paths = moved.map(({ path }, i) => ({ ...path, name: requests[i]!.name, from: redactUrlPart(path.from, secrets), to: requests[i]!.path }));
        return { profile: chosen, callbackPrefix: target, requests, paths };
      }),
  };
}
