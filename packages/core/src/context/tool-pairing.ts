import type { AgentEvent } from '../events/agent-event.js';
import type { ToolCallBlock, ToolResultBlock } from '../messages/content-block.js';
import { type Message, toolMessage } from '../messages/message.js';

/**
 * The output a model reads for one of this agent's tool calls whose result was never stored
 * (a crash, or history cut in the middle). Strict providers reject a call without a result.
 */
export const MISSING_RESULT_OUTPUT =
  'No result was recorded for this tool call (the run stopped before it finished). Call the tool again if you still need it.';

/** A call of a tool, keyed by where it was made: ids are only unique per agent and branch. */
export const callKey = (event: AgentEvent, toolCallId: string) => `${event.path}\u0000${event.branch ?? ''}\u0000${toolCallId}`;

/**
 * One of this agent's assistant messages that called tools, with the results found for it.
 * Results are gathered here, not where they were stored, so they always directly follow their
 * call in the request — whatever else was stored between them.
 */
export class CallGroup {
  private readonly answered = new Set<string>();
  private readonly results: Message[] = [];

  constructor(
    readonly message: Message,
    private readonly calls: readonly ToolCallBlock[],
  ) {}

  /** Records a stored tool message; blocks already answered (duplicates) are left out. */
  addResults(message: Message, blocks: readonly ToolResultBlock[]): void {
    const only = blocks.length === 1 && message.content.length === 1 ? blocks[0] : undefined;
    if (only) {
      // The usual shape (one result per stored event), kept allocation-free: this runs per event.
      if (this.answered.has(only.toolCallId)) return;
      this.answered.add(only.toolCallId);
      this.results.push(message);
      return;
    }
    const fresh = blocks.filter((b) => !this.answered.has(b.toolCallId) && this.answered.add(b.toolCallId));
    if (fresh.length) this.results.push(fresh.length === message.content.length ? message : toolMessage(fresh));
  }

  /** True while some call has no result: the agent itself runs these when it resumes. */
  get unanswered(): boolean {
    return this.answered.size < this.calls.length;
  }

  /**
   * Appends the call, its results and — unless the agent is about to run the missing calls
   * itself (`open`) — a placeholder error result for each call that has none.
   */
  render(out: Message[], open: boolean): void {
    out.push(this.message);
    for (const result of this.results) out.push(result);
    if (open || !this.unanswered) return;
    const missing: ToolResultBlock[] = [];
    for (const call of this.calls)
      if (!this.answered.has(call.id))
        missing.push({ type: 'tool_result', toolCallId: call.id, name: call.name, output: MISSING_RESULT_OUTPUT, isError: true });
    out.push(toolMessage(missing));
  }
}
