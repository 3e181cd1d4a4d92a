import type { Command } from 'commander';
import { registerBalance } from './balance';
import { registerCaptures } from './captures';
import { registerExplainRefusal } from './explain-refusal';
import { registerExport } from './export';
import { registerImport } from './import';
import { registerProfile } from './profile';
import { registerPrune } from './prune';
import { registerRedeliver } from './redeliver';
import { registerSandbox } from './sandbox';
import { registerServe } from './serve';
import { registerShow } from './show';
import { registerCheck } from './check';
import { registerDb } from './db';
import { registerEdgeCases } from './edge-cases';
import { registerReplay } from './replay';
import { registerReverify } from './reverify';
import { registerTail } from './tail';
import { registerSend } from './send';
import { registerSaved } from './saved';
import { registerSign } from './sign';
import { registerToken } from './token';
import { registerVerify } from './verify';

/** Every command of the CLI, in the order `--help` lists them. */
export function registerCommands(program: Command): void {
  registerSign(program);
  registerVerify(program);
  registerReplay(program);
  registerExplainRefusal(program);
  registerSend(program);
  registerSaved(program);
  registerRedeliver(program);
  registerCheck(program);
  registerEdgeCases(program);
  registerCaptures(program);
  registerShow(program);
  registerTail(program);
  registerReverify(program);
  registerProfile(program);
  registerBalance(program);
  registerExport(program);
  registerImport(program);
  registerToken(program);
  registerServe(program);
  registerSandbox(program);
  registerPrune(program);
  registerDb(program);
}
