import { ReplanError } from './replan-error.js';

/** A tool call named in a compensation report. */
export interface CompensatedCall {
  readonly callId: string;
  readonly tool: string;
}

/**
 * What undoing a run's (or dropped steps') finished calls did (`tool({ compensate })`), in the order
 * it went: `undone` in reverse order of completion, `skipped` the calls of compensable tools whose
 * result was never stored (not undone: they may or may not have run), `notUndone` what is still done
 * after a compensation failed (empty when it did not).
 */
export interface CompensationReport {
  readonly undone: readonly CompensatedCall[];
  readonly skipped: readonly CompensatedCall[];
  readonly notUndone: readonly CompensatedCall[];
}

const listed = (calls: readonly CompensatedCall[]) => (calls.length ? calls.map((c) => `${c.tool} (call ${c.callId})`).join(', ') : 'none');

/**
 * A compensation (`tool({ compensate })`) threw: undoing stopped there and is not retried. The run
 * ends `failed` for good with this error; `undone` lists the calls already undone, `failed` the one
 * whose compensation threw, `notUndone` the calls still done (the failed one first), `skipped`
 * the calls that were never undone because their result was never stored.
 */
export class CompensationError extends ReplanError {
  readonly undone: readonly CompensatedCall[];
  readonly notUndone: readonly CompensatedCall[];
  readonly skipped: readonly CompensatedCall[];
  readonly failed: CompensatedCall & { readonly error: string };

  constructor(
    report: CompensationReport & { readonly failed: CompensatedCall & { readonly error: string } },
    options?: { cause?: unknown },
  ) {
    const { failed } = report;
    super(
      `Compensation of ${failed.tool} (call ${failed.callId}) failed: ${failed.error}. Undoing stopped and is not retried. ` +
        `Undone: ${listed(report.undone)}. Not undone: ${listed(report.notUndone)}. ` +
        `${report.skipped.length ? `Skipped (result never stored, may or may not have run): ${listed(report.skipped)}. ` : ''}` +
        'Undo the calls not undone by hand (check the skipped ones too); each compensation key is "<sessionId>:<callId>:compensate".',
      options,
    );
    this.undone = report.undone;
    this.notUndone = report.notUndone;
    this.skipped = report.skipped;
    this.failed = failed;
  }
}
