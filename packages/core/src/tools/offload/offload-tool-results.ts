import type { Middleware } from '../../middleware/middleware.js';
import type { ToolContext } from '../tool-context.js';
import { toolRuntimeOf } from '../../invocation/tool-runtime.js';
import { resolveToolResults, ToolResultPreviews, type ToolResultsOptions } from './tool-result-preview.js';
import { storedToolResult, toolResultTools } from './tool-result-tools.js';

/** The run a reading tool was called in: only this session's results are read. */
function lookup(toolCallId: string, ctx: ToolContext): string {
  const invocation = toolRuntimeOf(ctx)?.invocation;
  if (!invocation)
    throw new Error('read_tool_result and search_tool_result read the results of the run that calls them; call them from an agent.');
  return storedToolResult(invocation, toolCallId);
}

/**
 * Offloads large tool results, as middleware: `middleware: [offloadToolResults({ maxTokens })]`.
 * A result longer than `maxTokens` is stored whole but the model is shown its head and tail with a
 * note, and the agent gains `read_tool_result` and `search_tool_result` to read the rest (this
 * session's results only). Given to a plan–execute replanner, it caps the step results it is shown.
 */
export function offloadToolResults(options: ToolResultsOptions): Middleware & { readonly maxTokens: number } {
  const maxChars = resolveToolResults('offloadToolResults', options);
  const previews = new ToolResultPreviews(maxChars);
  return {
    name: 'offloadToolResults',
    maxTokens: options.maxTokens,
    tools: toolResultTools(lookup, maxChars),
    prepareRequest(request) {
      const messages = previews.all(request.messages);
      return messages === request.messages ? request : { ...request, messages };
    },
  };
}
