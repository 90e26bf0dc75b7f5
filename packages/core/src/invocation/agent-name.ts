import { ConfigurationError } from '../errors/replan-error.js';
import type { Agent } from './agent.js';

const NAME = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/;

/** Checks an agent name: an identifier (it appears in paths and prompts), never `'user'`. */
export function assertAgentName(name: string): void {
  if (typeof name !== 'string' || !NAME.test(name) || name === 'user')
    throw new ConfigurationError(
      `Agent name ${JSON.stringify(name)} is invalid: use a letter or "_" then letters, digits, "_" or "-" (at most 64), and not "user".`,
    );
}

/** What to do about a name used twice: rename one, and how for agents that name their own parts. */
export const DUPLICATE_NAME_FIX =
  'Give one of them another name (the `name` option of its constructor or create* function). ' +
  'A plan–execute agent names its internal agents after its own name: give each createPlanExecuteAgent a distinct `name`.';

/** Throws when two agents in the tree share a name (names address agents in events and context). */
export function assertUniqueAgentNames(root: Agent): void {
  const seen = new Map<string, string>();
  const visit = (agent: Agent, path: string) => {
    const earlier = seen.get(agent.name);
    if (earlier !== undefined)
      throw new ConfigurationError(
        `Agent name "${agent.name}" is used twice in one agent tree (at ${earlier} and ${path}); names must be unique (they identify authors in events). ${DUPLICATE_NAME_FIX}`,
      );
    seen.set(agent.name, path);
    for (const child of agent.subAgents ?? []) visit(child, `${path}/${child.name}`);
  };
  visit(root, root.name);
}
