import type { ContentBlock } from '../messages/content-block.js';
import type { Message } from '../messages/message.js';
import { PLAN_REACT_TAGS as T, splitPlanReActTags } from './plan-react-tags.js';
import type { ToolSpec } from '../models/chat-model.js';
import type { ReActPlanner } from './react-planner.js';

/**
 * Plan–ReAct prompting for models without native thinking: the model is asked to write a plan,
 * its reasoning and its answer under `/*PLANNING*\/ /*REPLANNING*\/ /*REASONING*\/ /*ACTION*\/
 * /*FINAL_ANSWER*\/` tags; each answer is turned into `reasoning` blocks (with `reasoningKind`)
 * and a tag-free `text` answer. Use with `new ReActAgent({ ..., planner: new PlanReActPlanner() })`.
 */
export class PlanReActPlanner implements ReActPlanner {
  /**
   * The tagging instruction. It names the agent's tools but never shows call syntax: tools are
   * called through the model's function-calling interface, and an example could teach the model
   * to write calls as text (or to call tools it does not have).
   */
  instruction(tools: readonly ToolSpec[]): string {
    const toolLine = tools.length
      ? `Carry out actions by calling your tools (${tools.map((t) => t.name).join(', ')}) through function calling, never by writing a call as text. Use only these tools.`
      : 'You have no tools: work from the conversation and your own knowledge.';
    return [
      'Answer in this format, each part starting with its tag:',
      `${T.planning} a short numbered plan for answering the request.`,
      `${T.reasoning} your reasoning about what you found and what to do next.`,
      `${T.action} what you will do next, right before you do it.`,
      `${T.replanning} a revised plan, when results show the plan will not work.`,
      `${T.finalAnswer} the answer for the user, with nothing after it.`,
      toolLine,
      `Write ${T.finalAnswer} only when you need no further action.`,
    ].join('\n');
  }

  /** Turns the tagged answer into content blocks; drops tool calls without a name. Never mutates. */
  processResponse(message: Message): Message {
    const split = splitPlanReActTags(message.content);
    let content: readonly ContentBlock[] = split;
    // A call with no name cannot be run or answered; some models emit one after their plan.
    if (split.some((b) => b.type === 'tool_call' && !b.name.trim())) content = split.filter((b) => b.type !== 'tool_call' || b.name.trim());
    return content === message.content ? message : { ...message, content };
  }
}
