/** A tool that failed during a step: its name and its error result, shown to the replanner. */
export interface StepToolError {
  readonly tool: string;
  readonly error: string;
}
