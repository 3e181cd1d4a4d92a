import { useState } from 'react';
import type { DeskError, Result } from '../../src-main/shared/model';
import { writeClipboard } from './clipboard';

export interface CopyCommand {
  command: string | null;
  error: DeskError | null;
  /** 'blocked': the page may not write the clipboard, so the command is shown for copying by hand. */
  copied: 'yes' | 'blocked' | null;
  run(): Promise<void>;
  dismiss(): void;
}

/** Asks the desk for a command (a cURL line), copies it to the clipboard, and keeps it to show. */
export function useCopyCommand(fetch: () => Promise<Result<string>>): CopyCommand {
  const [command, setCommand] = useState<string | null>(null);
  const [error, setError] = useState<DeskError | null>(null);
  const [copied, setCopied] = useState<'yes' | 'blocked' | null>(null);
  return {
    command,
    error,
    copied,
    async run() {
      setError(null);
      setCopied(null);
      const r = await fetch();
      if (!r.ok) {
        setCommand(null);
        setError(r.error);
        return;
      }
      setCommand(r.value);
      setCopied((await writeClipboard(r.value)) ? 'yes' : 'blocked');
    },
    dismiss: () => setCommand(null),
  };
}
