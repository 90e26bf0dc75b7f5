/**
 * A label a composite agent puts on the work of a sub-agent (plan–execute labels each plan step's
 * work: `id` its step id or number, `text` its task). Core carries it without reading it: to the
 * model (`ModelCallOptions.agent.label`), to observers and to `RunResult.breakdown.byLabel`.
 */
export interface WorkLabel {
  /** What calls are grouped by (usage breakdown, observers). */
  readonly id: string;
  /** A longer description, e.g. for a scripted model to answer by what the work is. */
  readonly text?: string;
}

/**
 * The `meta` key on which a streamed (partial) event made under a label carries the label's id: such
 * a delta is a sub-agent's work, never the run's answer (output guardrails do not hold it back).
 */
export const WORK_LABEL_META = 'label';
