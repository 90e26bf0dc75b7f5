/**
 * The signal one SDK call is given: aborted when the run's signal aborts, and unlinked from it when the call
 * is done. The `openai` SDK adds an `abort` listener to every signal it is handed and never removes it, so
 * handing it the run's own signal piled up one listener per model call for the length of the run (and
 * Node's `MaxListenersExceededWarning` after ten calls).
 */
export interface CallSignal {
  /** What to pass to the SDK (undefined when the run has no signal). */
  readonly signal: AbortSignal | undefined;
  /** Unlinks the call's signal from the run's; call once the call and its stream are done. */
  release(): void;
}

export function callSignal(runSignal: AbortSignal | undefined): CallSignal {
  if (!runSignal) return { signal: undefined, release: () => {} };
  const controller = new AbortController();
  if (runSignal.aborted) {
    controller.abort(runSignal.reason);
    return { signal: controller.signal, release: () => {} };
  }
  const forward = () => controller.abort(runSignal.reason);
  runSignal.addEventListener('abort', forward, { once: true });
  return { signal: controller.signal, release: () => runSignal.removeEventListener('abort', forward) };
}
