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

/** Throws when two agents in the tree share a name (names address agents in events and context). */
export function assertUniqueAgentNames(root: Agent): void {
  const seen = new Set<string>();
  const visit = (agent: Agent) => {
    if (seen.has(agent.name))
      throw new ConfigurationError(
        `Agent name "${agent.name}" is used twice in one agent tree; names must be unique (they identify authors in events).`,
      );
    seen.add(agent.name);
    for (const child of agent.subAgents ?? []) visit(child);
  };
  visit(root);
}
