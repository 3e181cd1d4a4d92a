// Saved requests: the composer's draft kept under a name in a profile, listed, removed, and written to
// or read from the file a team keeps (saved/saved-file.ts). What is stored never holds a secret in
// clear: the signature header is dropped (it is computed when the request is sent), and a stored
// secret typed into a header, the path or the body is redacted as everywhere else.
import type { DeskApi } from '../../shared/desk-api';
import { SIGNATURE_HEADER, type Draft, type SavedRequest, type SavedSignature, type SignatureMode } from '../../shared/model';
import { redactBytes, redactHeaders, redactUrlPart, storedSecrets } from '../redact';
import { attempt, DeskFailure } from '../result';
import { parseSavedFile, savedFileText, type SavedFileRequest } from '../saved/saved-file';
import type { DeskContext } from './context';

const SAVED_MODES: readonly SignatureMode[] = ['resign', 'invalid', 'none'];

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

  /** The request as it may be stored: no signature header, no stored secret in clear. */
  const storable = (profile: string, r: SavedFileRequest): SavedRequest => {
    const name = r.name.trim();
    if (name === '' || name.length > 200) throw new DeskFailure('bad-input', 'A saved request needs a name (at most 200 characters).');
    if (!r.path.startsWith('/')) throw new DeskFailure('bad-input', `The path "${r.path}" must start with "/".`);
    const secrets = storedSecrets(ctx);
    const headers = redactHeaders(
      r.headers.filter(([k]) => k.toLowerCase() !== SIGNATURE_HEADER),
      secrets,
    );
    const body = redactBytes(Buffer.from(r.bodyBase64, 'base64'), secrets).bytes;
    return {
      profile,
      name,
      method: r.method.toUpperCase(),
      path: redactUrlPart(r.path, secrets),
      headers,
      bodyBase64: Buffer.from(body).toString('base64'),
      signature: r.signature,
      savedAt: new Date().toISOString(),
    };
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
    listSavedRequests: (profile) => attempt(() => saved.list(profileOf(profile))),
    removeSavedRequest: (name, profile) =>
      attempt(async () => {
        const chosen = profileOf(profile);
        if (!(await saved.remove(chosen, name))) throw new DeskFailure('not-found', `No saved request "${name}" in profile ${chosen}.`);
        return null;
      }),
    exportSavedRequests: (profile) => attempt(async () => savedFileText(await saved.list(profileOf(profile)))),
    importSavedRequests: (text, profile) =>
      attempt(async () => {
        const chosen = profileOf(profile);
        const requests = parseSavedFile(text).map((r) => storable(chosen, r));
        await saved.put(requests);
        return requests;
      }),
  };
}
