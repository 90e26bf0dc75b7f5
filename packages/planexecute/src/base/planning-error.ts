import { ReplanError, type Message } from '@replan/core';

/**
 * A planner or replanner did not produce a usable plan or answer, even after its repair attempts
 * (the error was sent back to the model each time). `output` is the model's last answer.
 */
export class PlanningError extends ReplanError {
  constructor(
    readonly agentName: string,
    /** The model's last (faulty) answer, as it returned it. */
    readonly output: Message,
    /** What was wrong with it. */
    readonly problem: string,
    /** Model calls made for this decision (the first answer plus the repairs). */
    readonly attempts: number,
  ) {
    super(
      `Agent "${agentName}" gave no valid plan or answer after ${attempts} attempts: ${problem}. ` +
        'Check that the model supports forced tool calls (or use structuredOutput: "response-format"), ' +
        'that planSchema is satisfiable, and the prompt; the last answer is in error.output.',
    );
  }
}
