import { stepsOf } from '../base/plan-schema.js';
import { stepToolsOf } from './step-tools.js';

const list = (names: readonly string[]) => names.map((n) => `"${n}"`).join(', ');

/**
 * What is wrong with the tools a plan's steps name (`review.grants`): a tool the executor does not
 * have, or arguments for a tool the step does not list. Worded for the model (a repair) and for a
 * reviewer whose edited plan is refused; `undefined` when every step is fine.
 */
export function stepToolsProblem(plan: unknown, executorTools: readonly string[]): string | undefined {
  const problems: string[] = [];
  stepsOf(plan).forEach((step, i) => {
    const { tools, args } = stepToolsOf(step);
    const unknown = tools.filter((t) => !executorTools.includes(t));
    if (unknown.length)
      problems.push(
        `step ${i + 1} names tool(s) ${list(unknown)} that the executor does not have (its tools: ${executorTools.length ? list(executorTools) : 'none'})`,
      );
    const unlisted = Object.keys(args).filter((t) => !tools.includes(t));
    if (unlisted.length) problems.push(`step ${i + 1} gives "args" for ${list(unlisted)}, which its "tools" do not list`);
  });
  return problems.length ? problems.join('; ') : undefined;
}
