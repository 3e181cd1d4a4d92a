import type { Command } from 'commander';
import { registerCaptures } from './captures';
import { registerProfile } from './profile';
import { registerShow } from './show';
import { registerSign } from './sign';
import { registerVerify } from './verify';

/** Every command of the CLI, in the order `--help` lists them. */
export function registerCommands(program: Command): void {
  registerSign(program);
  registerVerify(program);
  registerCaptures(program);
  registerShow(program);
  registerProfile(program);
}
