// What a re-verification reads from either engine's log (a signed row, its headers and exact body) and
// writes back (with what, when and by whom it was judged again).
import type { HeaderList } from '../../../shared/model';

export interface SignedRow {
  id: number;
  headers: HeaderList;
  body: Buffer;
  verdict: string | null;
}

export interface Rejudged {
  at: string;
  profile: string;
  fingerprint: string | null;
}
