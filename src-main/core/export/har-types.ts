// The parts of HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/) the desk writes. Custom
// fields start with an underscore, as the spec asks, so other tools ignore them.
import type { Direction, ExchangeOrigin, Verdict } from '../../shared/model';

export interface HarNameValue {
  name: string;
  value: string;
}

export interface HarPostData {
  mimeType: string;
  text: string;
  /** HAR 1.2 has no encoding for request bodies: ours says 'base64' where the bytes are not UTF-8. */
  _encoding?: 'base64';
}

export interface HarContent {
  size: number;
  mimeType: string;
  text?: string;
  encoding?: 'base64';
}

export interface HarRequest {
  method: string;
  url: string;
  httpVersion: string;
  cookies: [];
  headers: HarNameValue[];
  queryString: HarNameValue[];
  postData?: HarPostData;
  headersSize: number;
  bodySize: number;
}

export interface HarResponse {
  status: number;
  statusText: string;
  httpVersion: string;
  cookies: [];
  headers: HarNameValue[];
  content: HarContent;
  redirectURL: string;
  headersSize: number;
  bodySize: number;
  /** Why there is no response (refused, timeout, ...), as Chromium and mitmproxy write it. */
  _error?: string;
}

export interface HarTimings {
  blocked: number;
  dns: number;
  connect: number;
  send: number;
  wait: number;
  receive: number;
  ssl: number;
}

/** What the desk knows about an entry beyond HTTP: enough to tell where it came from after a round trip. */
export interface HarWagerDesk {
  id: number;
  direction: Direction;
  origin: ExchangeOrigin;
  kind: string;
  /** Whose capture it is: the profile it was judged under (null: unassigned, or an outbound without one). */
  profile: string | null;
  verdict: Verdict | null;
  sourceId: number | null;
  tags: string[];
  /** Bytes the request had when received; larger than the body when the desk cut it. */
  size: number;
  truncated: boolean;
}

export interface HarEntry {
  startedDateTime: string;
  time: number;
  request: HarRequest;
  response: HarResponse;
  cache: Record<string, never>;
  timings: HarTimings;
  comment?: string;
  _wagerDesk: HarWagerDesk;
}

export interface Har {
  log: {
    version: '1.2';
    creator: { name: string; version: string; comment?: string };
    entries: HarEntry[];
    comment?: string;
  };
}
