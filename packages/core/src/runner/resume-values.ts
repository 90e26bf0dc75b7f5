import { ResumeError } from '../errors/resume-error.js';
import type { Interrupt } from '../events/agent-event.js';
import { approvalAnswerProblem } from '../tools/approval-answer.js';
import type { Agent } from '../invocation/agent.js';
import type { Session } from '../sessions/session.js';
import type { ResumeOptions } from './run-options.js';

/** The agent of the tree at `path` (names joined by `/`, the root's first), if any. */
function agentAt(root: Agent, path: string): Agent | undefined {
  const [first, ...rest] = path.split('/');
  if (first !== root.name) return undefined;
  let agent: Agent | undefined = root;
  for (const name of rest) agent = agent?.subAgents?.find((child) => child.name === name);
  return agent;
}

/**
 * The resume values, checked against the open interrupts before anything is stored or run: an
 * approval's answer by core, any other by the agent that asked (`Agent.checkResumeValue`).
 */
export function checkedResumeValues(
  options: ResumeOptions,
  open: readonly Interrupt[],
  root: Agent,
  session: Session,
): Record<string, unknown> {
  // Null prototype: an id such as "__proto__" or "constructor" is a key like any other, never Object.prototype's.
  const values: Record<string, unknown> = Object.assign(Object.create(null), options.values);
  for (const [id, answer] of Object.entries(options.approvals ?? {})) {
    if (Object.hasOwn(values, id)) throw ResumeError.invalidValue(id, 'it is given both in values and in approvals; give it once');
    values[id] = answer;
  }
  for (const [id, value] of Object.entries(values)) {
    const interrupt = open.find((i) => i.id === id);
    if (!interrupt)
      throw ResumeError.unknownInterrupt(
        id,
        open.map((i) => i.id),
      );
    if (interrupt.reason === 'approval') {
      const problem = approvalAnswerProblem(value);
      if (problem) throw ResumeError.invalidValue(id, `it is an approval interrupt (tool "${interrupt.toolName ?? '?'}"), ${problem}`);
    } else if (options.approvals && Object.hasOwn(options.approvals, id))
      throw ResumeError.invalidValue(id, `it is not an approval interrupt (its reason is "${interrupt.reason}"); answer it in values`);
    else if (interrupt.path !== undefined && interrupt.toolCallId === undefined)
      agentAt(root, interrupt.path)?.checkResumeValue?.(interrupt, value, session.state);
  }
  return values;
}
