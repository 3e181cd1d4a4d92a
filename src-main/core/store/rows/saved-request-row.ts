// A saved request's row as both engines store it (saved_requests), and the request the desk hands on.
import type { HeaderList, SavedRequest, SavedSignature } from '../../../shared/model';

export interface SavedRequestRow {
  profile: string;
  name: string;
  method: string;
  path: string;
  headers: string;
  body: Buffer;
  signature: SavedSignature;
  saved_at: string;
}

/** A row of either engine's saved_requests as the desk hands it on. */
export const toSaved = (r: SavedRequestRow): SavedRequest => ({
  profile: r.profile,
  name: r.name,
  method: r.method,
  path: r.path,
  headers: JSON.parse(r.headers) as HeaderList,
  bodyBase64: r.body.toString('base64'),
  signature: r.signature,
  savedAt: r.saved_at,
});
