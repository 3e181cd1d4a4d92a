// What an action that may reach a production operator returns: done, failed (the error is in the
// slice), or stopped because the desk wants the user to confirm the named target first.
import type { DeskError } from '../../src-main/shared/model';

export type SendOutcome = { status: 'done' } | { status: 'failed' } | { status: 'confirm'; message: string };

export function outcomeOfError(error: DeskError): SendOutcome {
  return error.code === 'needs-confirmation' ? { status: 'confirm', message: error.message } : { status: 'failed' };
}
