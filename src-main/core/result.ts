import type { DeskErrorCode } from '../shared/model';

/** A failure with a stable code, thrown inside the core and turned into a Result at the desk's edge (desk/attempt.ts). */
export class DeskFailure extends Error {
  constructor(
    readonly code: DeskErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'DeskFailure';
  }
}
