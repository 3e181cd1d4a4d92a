// The wager-desk package this CLI belongs to: its root directory (the web UI's build lives under it)
// and its version. The CLI runs from out/main (built, possibly split into chunks) or from src-main/cli
// (tsx), so the root is found by walking up to the package.json named wager-desk, not by counting '..'.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface PackageInfo {
  dir: string;
  version: string;
}

let found: PackageInfo | null | undefined;

/** The package's root and version; null when this file is not inside a wager-desk package. */
export function packageInfo(): PackageInfo | null {
  if (found !== undefined) return found;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg)) {
      try {
        const json = JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string; version?: string };
        if (json.name === 'wager-desk') return (found = { dir, version: json.version ?? 'unknown' });
      } catch {
        // an unreadable package.json is not ours: keep walking
      }
    }
    const parent = dirname(dir);
    if (parent === dir) return (found = null);
    dir = parent;
  }
}
