/** The id of the stored tool call that compensates call `callId`. */
export const compensationCallId = (callId: string): string => `${callId}:compensate`;

/** `meta.kind` of the event that opens a run's compensation (`run.abort` / `runner.cancel` with `compensate`). */
export const COMPENSATION_START = 'compensation-start';
/** `meta.kind` of the event that closes it (with `invocationEnd`, and `meta.compensation`: the report). */
export const COMPENSATION_END = 'compensation-end';
/** `meta.kind` of a compensation's tool call and result events (`meta.compensates`: the call undone). */
export const COMPENSATION_CALL = 'compensation';
