// Requests saved from the composer under a name, per profile (table from migration 009): the exact body
// bytes, the headers without the signature header (a signature is computed when the request is sent),
// the method, the path and how to sign.
import type { SavedRequest } from '../../../shared/model';
import { toSaved, type SavedRequestRow } from '../rows/saved-request-row';
import type { Db } from './open';

export class SavedRequestStore {
  private readonly listStmt;
  private readonly getStmt;
  private readonly putStmt;
  private readonly removeStmt;

  constructor(db: Db) {
    this.listStmt = db.prepare('SELECT * FROM saved_requests WHERE profile = ? ORDER BY name');
    this.getStmt = db.prepare('SELECT * FROM saved_requests WHERE profile = ? AND name = ?');
    this.putStmt = db.prepare(
      `INSERT OR REPLACE INTO saved_requests (profile, name, method, path, headers, body, signature, saved_at)
       VALUES (@profile, @name, @method, @path, @headers, @body, @signature, @savedAt)`,
    );
    this.removeStmt = db.prepare('DELETE FROM saved_requests WHERE profile = ? AND name = ?');
  }

  list(profile: string): SavedRequest[] {
    return (this.listStmt.all(profile) as SavedRequestRow[]).map(toSaved);
  }

  get(profile: string, name: string): SavedRequest | null {
    const row = this.getStmt.get(profile, name) as SavedRequestRow | undefined;
    return row ? toSaved(row) : null;
  }

  /** Saves (or replaces) the request of this name in its profile. */
  put(r: SavedRequest): SavedRequest {
    this.putStmt.run({ ...r, headers: JSON.stringify(r.headers), body: Buffer.from(r.bodyBase64, 'base64') });
    return r;
  }

  /** Whether there was such a request. */
  remove(profile: string, name: string): boolean {
    return this.removeStmt.run(profile, name).changes > 0;
  }
}
