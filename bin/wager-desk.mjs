#!/usr/bin/env node
// The package's bin: runs the built CLI (npm install builds it through the `prepare` script).
import { existsSync } from 'node:fs';

const built = new URL('../out/main/cli.js', import.meta.url);
if (!existsSync(built)) {
  process.stderr.write('wager-desk: the CLI is not built yet; run `npm run build` in the checkout.\n');
  process.exit(2);
}
await import(built.href);
