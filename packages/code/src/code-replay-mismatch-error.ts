import { ReplanError } from '@replan/core';

/**
 * A resumed program made other tool calls than the ones stored for its code call: another tool,
 * other arguments, or more or fewer calls before it ended. The program is not deterministic (it
 * depends on something besides its tools' results), so the stored results cannot be trusted to
 * line up with its calls: nothing was run again, and the code call ends with this error as its
 * result. `index` is the 0-based position of the first call that differs.
 */
export class CodeReplayMismatchError extends ReplanError {
  constructor(
    readonly codeCallId: string,
    readonly index: number,
    readonly difference: string,
  ) {
    super(
      `Code call ${codeCallId} replayed differently from its record at inner call #${index}: ${difference}. ` +
        'Nothing was run again. A program must make the same tool calls each time it runs given the same tool results ' +
        '(no randomness or clock beyond the frozen ones, no dependence on anything outside its tools); ' +
        'write a new program instead of repeating this one.',
    );
  }
}
