import type { Agent } from '../invocation/agent.js';
import type { Tool } from '../tools/tool.js';

/** Finds the tool a stored call named: the calling agent's first, else any agent's in the tree with that name and a `compensate`. */
export type ToolFinder = (name: string, author: string) => Tool | undefined;

/**
 * The tool finder of an agent tree. Tools are found through `Agent.toolNamed` (ReActAgent and the
 * plan–execute executors have it) on every agent reached by `subAgents`: a compensation after a
 * crash runs in a new process, where only the tree, not the old run's objects, is there.
 */
export function toolFinderOf(root: Agent): ToolFinder {
  const agents: Agent[] = [];
  const visit = (agent: Agent) => {
    agents.push(agent);
    for (const child of agent.subAgents ?? []) visit(child);
  };
  visit(root);
  return (name, author) => {
    const own = agents.find((a) => a.name === author)?.toolNamed?.(name);
    if (own) return own;
    for (const agent of agents) {
      const found = agent.toolNamed?.(name);
      if (found?.compensate) return found;
    }
    return undefined;
  };
}
