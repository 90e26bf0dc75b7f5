import { InvalidResumeValueError, UnknownInterruptError } from '../errors/run-errors.js';
import type { Interrupt } from '../events/agent-event.js';
import { approvalAnswerProblem } from '../tools/approval-answer.js';
import type { ResumeOptions } from './runner.js';

/** The resume values, checked against the open interrupts before anything is stored or run. */
export function checkedResumeValues(options: ResumeOptions, open: readonly Interrupt[]): Record<string, unknown> {
  const values: Record<string, unknown> = { ...options.values };
  for (const [id, answer] of Object.entries(options.approvals ?? {})) {
    if (id in values) throw new InvalidResumeValueError(id, 'it is given both in values and in approvals; give it once');
    values[id] = answer;
  }
  for (const [id, value] of Object.entries(values)) {
    const interrupt = open.find((i) => i.id === id);
    if (!interrupt)
      throw new UnknownInterruptError(
        id,
        open.map((i) => i.id),
      );
    if (interrupt.reason === 'approval') {
      const problem = approvalAnswerProblem(value);
      if (problem) throw new InvalidResumeValueError(id, `it is an approval interrupt (tool "${interrupt.toolName ?? '?'}"), ${problem}`);
    } else if (options.approvals && id in options.approvals)
      throw new InvalidResumeValueError(id, `it is not an approval interrupt (its reason is "${interrupt.reason}"); answer it in values`);
  }
  return values;
}
