// `wager-desk saved list|export|import|remove`: the requests saved from the composer, per profile, and
// the file a team keeps them in (docs/CLI.md, Saved requests).
import { writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import { readBoundedInput } from '../bounded-input';
import { must, withDesk } from '../context';
import { UsageError } from '../errors';
import { printJson, writeStdout } from '../io';
import type { SavedImport, SavedPathChange } from '../../shared/model';

const profileOption = (cmd: Command): Command => cmd.option('--profile <name>', 'the profile (default: the active one)');

/** A saved requests file as large as a team keeps (thousands of requests); a larger one is refused by its size, unread. */
export const MAX_SAVED_FILE_BYTES = 16 * 1024 * 1024;

/** One line a request whose path was moved, or that could not be: an unchanged path says nothing. */
function pathLine(change: SavedPathChange, into: SavedImport): string {
  const name = JSON.stringify(change.name);
  if (change.outcome === 'retargeted')
    return `re-targeted ${name}: ${change.from} -> ${change.to} (the prefix ${change.prefix} replaced by ${into.profile}'s ${into.callbackPrefix})\n`;
  if (change.outcome === 'kept') return `not re-targeted ${name}: ${change.from} starts with no known callback prefix, kept as is\n`;
  return '';
}

export function registerSaved(program: Command): void {
  const saved = program.command('saved').description('requests saved from the composer: list, export, import, remove');
  profileOption(saved.command('list').description("a profile's saved requests"))
    .option('--json', 'machine-readable output')
    .action(async (_opts, cmd: Command) => {
      const opts = cmd.optsWithGlobals();
      await withDesk(opts, async (desk) => {
        const list = must(await desk.listSavedRequests(opts.profile as string | undefined));
        if (opts.json) return printJson(list);
        if (list.length === 0) return writeStdout('no saved requests: save one from the composer, or `wager-desk saved import FILE`\n');
        await writeStdout(
          list.map((r) => `${r.name}  ${r.method} ${r.path}  signature ${r.signature}  ${Buffer.from(r.bodyBase64, 'base64').length} bytes\n`).join(''),
        );
      });
    });
  profileOption(saved.command('export').description('write the saved requests as a JSON file to keep (in git, say)'))
    .argument('[file]', 'the file to write (default: stdout)')
    .action(async (file: string | undefined, _opts, cmd: Command) => {
      const opts = cmd.optsWithGlobals();
      await withDesk(opts, async (desk) => {
        const text = must(await desk.exportSavedRequests(opts.profile as string | undefined));
        if (file === undefined || file === '-') return writeStdout(text);
        try {
          writeFileSync(file, text);
        } catch (err) {
          throw new UsageError(`cannot write ${file}: ${(err as Error).message}`);
        }
      });
    });
  profileOption(saved.command('import').description('read saved requests from such a file (a request of the same name is replaced)'))
    .argument('<file>', 'the file (- for stdin)')
    .action(async (file: string, _opts, cmd: Command) => {
      const opts = cmd.optsWithGlobals();
      const text = (await readBoundedInput(file, MAX_SAVED_FILE_BYTES)).toString('utf8');
      await withDesk(opts, async (desk) => {
        const imported = must(await desk.importSavedRequests(text, opts.profile as string | undefined));
        const n = imported.requests.length;
        await writeStdout(`imported ${n} saved request${n === 1 ? '' : 's'}\n${imported.paths.map((p) => pathLine(p, imported)).join('')}`);
      });
    });
  profileOption(saved.command('remove').description('remove a saved request'))
    .argument('<name>', 'its name')
    .action(async (name: string, _opts, cmd: Command) => {
      const opts = cmd.optsWithGlobals();
      await withDesk(opts, async (desk) => {
        must(await desk.removeSavedRequest(name, opts.profile as string | undefined));
      });
    });
}
