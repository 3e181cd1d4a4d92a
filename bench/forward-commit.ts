// The cost of committing a relayed answer's record before the caller has the whole answer (forward
// mode), measured side by side against a build that relayed first and recorded with the next group:
// `node --import tsx bench/forward-commit.ts BEFORE_CLI_JS [rounds] [requests] [connections]`. Each
// round starts a fresh `serve` of each build in turn (alternating, so a change in the machine's load
// hits both), forwards the same signed pay to the same stand-in upstream, and prints requests a
// second and the ratio within the round. On a shared, loaded machine only these ratios mean anything.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deskCommand, startServe, type DeskCommand } from './lib/desk-cli';
import { BENCH_SECRET } from './lib/exchange-rows';
import { load } from './lib/load';
import { signedPay } from './lib/payload';
import { startUpstream } from './lib/upstream';

async function measure(cmd: DeskCommand, upstream: string, tag: string, requests: number, connections: number): Promise<number> {
  const home = mkdtempSync(join(tmpdir(), `fwd-commit-${tag}-`));
  const serve = await startServe(cmd, { home, upstream, secret: BENCH_SECRET, ui: false });
  try {
    await load(serve.proxyUrl, signedPay(), connections, Math.min(1_000, requests), 30);
    return (await load(serve.proxyUrl, signedPay(), connections, requests, 60)).rps;
  } finally {
    await serve.child.stop();
  }
}

async function main(): Promise<void> {
  const [beforeCli, rounds = '3', requests = '8000', connections = '32'] = process.argv.slice(2);
  if (!beforeCli) throw new Error('usage: bench/forward-commit.ts BEFORE_CLI_JS [rounds] [requests] [connections]');
  const before: DeskCommand = { nodeArgs: [beforeCli], label: beforeCli };
  const after = await deskCommand(false);
  const up = startUpstream();
  try {
    const url = await up.url;
    console.log(`before: ${before.label}\nafter: ${after.label}\n| round | before req/s | after req/s | after / before |\n| --- | --- | --- | --- |`);
    const ratios: number[] = [];
    for (let r = 1; r <= Number(rounds); r++) {
      // Alternate which goes first, so neither always meets a warmer or a colder machine.
      const first = r % 2 === 1;
      const a = first ? await measure(before, url, `b${r}`, Number(requests), Number(connections)) : 0;
      const b = await measure(after, url, `a${r}`, Number(requests), Number(connections));
      const a2 = first ? a : await measure(before, url, `b${r}`, Number(requests), Number(connections));
      ratios.push(b / a2);
      console.log(`| ${r} | ${Math.round(a2)} | ${Math.round(b)} | ${(b / a2).toFixed(2)}x |`);
    }
    ratios.sort((x, y) => x - y);
    console.log(
      `median after / before: ${ratios[Math.floor(ratios.length / 2)]!.toFixed(2)}x (range ${ratios[0]!.toFixed(2)} to ${ratios.at(-1)!.toFixed(2)})`,
    );
  } finally {
    await up.child.stop();
  }
}

await main();
