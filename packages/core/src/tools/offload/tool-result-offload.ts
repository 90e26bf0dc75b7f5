import type { InvocationContext } from '../../invocation/invocation-context.js';
import { ConfigurationError } from '../../errors/replan-error.js';
import type { ToolSpec } from '../../models/chat-model.js';
import { type Tool, toolSpecOf } from '../tool.js';
import { resolveToolResults, ToolResultPreviews, type ToolResultsOptions } from './tool-result-preview.js';
import { storedToolResult, toolResultTools } from './tool-result-tools.js';

const unbound = (): string => {
  throw new Error('read_tool_result and search_tool_result are bound to a run'); // only their specs are read
};

/** One `ReActAgent`'s `toolResults`: the previews it shows and the two reading tools it gains. */
export class ToolResultOffload {
  readonly maxChars: number;
  readonly previews: ToolResultPreviews;
  /** The specs of `read_tool_result` and `search_tool_result`, sent with the agent's own tools. */
  readonly specs: readonly ToolSpec[];

  constructor(agent: string, options: ToolResultsOptions, tools: ReadonlyMap<string, Tool>) {
    this.maxChars = resolveToolResults(agent, options);
    this.previews = new ToolResultPreviews(this.maxChars);
    const extra = toolResultTools(unbound, this.maxChars);
    for (const t of extra)
      if (tools.has(t.name))
        throw new ConfigurationError(`ReActAgent "${agent}": with toolResults the agent adds a tool named "${t.name}"; rename your tool.`);
    this.specs = extra.map(toolSpecOf);
  }

  /** The agent's tools plus the two reading tools, bound to this run's session. */
  toolsFor(ctx: InvocationContext, tools: ReadonlyMap<string, Tool>): ReadonlyMap<string, Tool> {
    const bound = toolResultTools((id) => storedToolResult(ctx, id), this.maxChars);
    return new Map([...tools, ...bound.map((t) => [t.name, t] as const)]);
  }
}
