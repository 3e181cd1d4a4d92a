// The stand-in upstream every forwarding proxy under test talks to (bench/servers/upstream.mjs, its own
// process): answers 200 {"status":"ok"} and counts what it served.
import { startChild, type Child } from './child';

export interface Upstream {
  child: Child;
  /** Its base URL, once it listens. Await it inside the try whose finally stops `child`. */
  url: Promise<string>;
}

export function startUpstream(): Upstream {
  const child = startChild(process.execPath, [new URL('../servers/upstream.mjs', import.meta.url).pathname]);
  return { child, url: child.waitFor(/^upstream: (http:\/\/\S+)$/m, 20_000).then((m) => m[1]!) };
}
