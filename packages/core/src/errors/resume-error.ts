import { ReplanError } from './replan-error.js';

/**
 * Why a session cannot be resumed (or run) as asked:
 * - `unknown_interrupt`: `resume` named an interrupt id that is not open in the session
 *   (`openInterruptIds` lists the ones that are);
 * - `invalid_value`: a `resume` value that does not fit its interrupt: an approval interrupt answered
 *   with something other than an `ApprovalAnswer`, an id under `approvals` that is not an approval
 *   interrupt, an id given twice, or a value the asking agent refused (`Agent.checkResumeValue`; a
 *   plan review's answer that is no `PlanReviewAnswer` or whose edited plan is not valid);
 * - `nothing_to_resume`: the session has no invocation, or its last one cannot continue;
 * - `open_interrupts`: `runner.run()` on a session whose last run stopped on interrupts nobody
 *   answered (e.g. an approval): a new message would leave them with no outcome (`interrupts`).
 *
 * In every kind nothing was stored or run: answer again with valid ids and values, or (for
 * `open_interrupts`) answer them with `runner.resume`, or start the new run with `abandon: true`.
 */
export type ResumeErrorKind = 'unknown_interrupt' | 'invalid_value' | 'nothing_to_resume' | 'open_interrupts';

/** What a waiting session is stopped on, as a `ResumeError` of kind `open_interrupts` names it. */
export interface OpenInterruptSummary {
  readonly id: string;
  readonly reason: string;
  readonly toolName?: string;
}

/** What a `ResumeError` knows besides its kind; each field belongs to the kinds its comment names. */
export interface ResumeErrorDetails {
  /** The interrupt id named (`unknown_interrupt`, `invalid_value`). */
  readonly interruptId?: string;
  /** The interrupt ids that are open in the session (`unknown_interrupt`). */
  readonly openInterruptIds?: readonly string[];
  /** What is wrong with the value (`invalid_value`). */
  readonly problem?: string;
  /** The session addressed (`nothing_to_resume`, `open_interrupts`). */
  readonly sessionId?: string;
  /** The interrupts nobody answered (`open_interrupts`). */
  readonly interrupts?: readonly OpenInterruptSummary[];
}

/**
 * A resume (or a new run) refused before anything was stored or run; `kind` says why, the message
 * what to do. The one resume-error class.
 *
 * ```ts
 * if (error instanceof ResumeError && error.kind === 'open_interrupts') await answer(error.interrupts);
 * ```
 */
export class ResumeError extends ReplanError {
  readonly interruptId: string | undefined;
  readonly openInterruptIds: readonly string[];
  readonly problem: string | undefined;
  readonly sessionId: string | undefined;
  readonly interrupts: readonly OpenInterruptSummary[];

  constructor(
    readonly kind: ResumeErrorKind,
    message: string,
    details: ResumeErrorDetails = {},
  ) {
    super(message);
    this.interruptId = details.interruptId;
    this.openInterruptIds = details.openInterruptIds ?? [];
    this.problem = details.problem;
    this.sessionId = details.sessionId;
    this.interrupts = details.interrupts ?? [];
  }

  /** `resume` named `interruptId`, which is not among the session's open interrupts. */
  static unknownInterrupt(interruptId: string, openInterruptIds: readonly string[]): ResumeError {
    return new ResumeError(
      'unknown_interrupt',
      `No open interrupt "${interruptId}" in this session. Open interrupts: ` +
        (openInterruptIds.length ? openInterruptIds.join(', ') : 'none') +
        '. Use the ids from RunResult.interrupts.',
      { interruptId, openInterruptIds },
    );
  }

  /**
   * The value given for `interruptId` does not fit it; `problem` says why (a clause such as "it must
   * be a number"). What an agent's `checkResumeValue` throws to refuse a value.
   */
  static invalidValue(interruptId: string, problem: string): ResumeError {
    return new ResumeError(
      'invalid_value',
      `Cannot resume with the value given for interrupt "${interruptId}": ${problem}. Nothing was run; resume again with a valid value.`,
      { interruptId, problem },
    );
  }

  /** Session `sessionId` has no invocation to resume. */
  static nothingToResume(sessionId: string): ResumeError {
    return new ResumeError('nothing_to_resume', `Session "${sessionId}" has no invocation to resume; start one with runner.run().`, {
      sessionId,
    });
  }

  /** `runner.run()` on session `sessionId`, which is waiting on `interrupts`. */
  static openInterrupts(sessionId: string, interrupts: readonly OpenInterruptSummary[]): ResumeError {
    const listed = interrupts.map((i) => `"${i.id}" (${i.reason}${i.toolName ? ` of ${i.toolName}` : ''})`).join(', ');
    return new ResumeError(
      'open_interrupts',
      `Session "${sessionId}" is waiting on ${interrupts.length} open interrupt(s): ${listed}. ` +
        'Answer them with runner.resume({ userId, sessionId, approvals: { [id]: true | false } }) (values: { [id]: value } for other interrupts), ' +
        'or start the new run with runner.run({ …, abandon: true }) to close them as "not approved: superseded by a new message". ' +
        'runner.pending({ userId, sessionId }) lists them.',
      { sessionId, interrupts },
    );
  }
}
