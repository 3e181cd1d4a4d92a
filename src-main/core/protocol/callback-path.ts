// Which callback a captured request path is. Operators mount the callbacks under prefixes of their
// own (/api/v2/platform/pay), so only the last two segments count; the query string and fragment
// never do. Matching is case-sensitive, like the paths of the spec. One trailing slash is tolerated
// because common routers treat /platform/pay/ as /platform/pay.
export type CallbackPathKind = 'pay' | 'results' | 'other';

const CALLBACK_PATH = /(?:^|\/)platform\/(pay|results)\/?$/;

export function kindOfPath(path: string): CallbackPathKind {
  const cut = path.search(/[?#]/);
  const bare = cut < 0 ? path : path.slice(0, cut);
  const match = CALLBACK_PATH.exec(bare);
  return match?.[1] === 'pay' ? 'pay' : match?.[1] === 'results' ? 'results' : 'other';
}
