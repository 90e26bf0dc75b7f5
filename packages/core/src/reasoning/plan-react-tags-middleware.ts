import type { ContentBlock } from '../messages/content-block.js';
import { type Message, messageText, systemMessage } from '../messages/message.js';
import type { ModelRequest, ToolSpec } from '../models/chat-model.js';
import type { Middleware } from '../middleware/middleware.js';
import { PLAN_REACT_TAGS as T, splitPlanReActTags } from './plan-react-tags.js';

/**
 * The tagging instruction. It names the agent's tools but never shows call syntax: tools are
 * called through the model's function-calling interface, and an example could teach the model
 * to write calls as text (or to call tools it does not have).
 */
export function planReActInstruction(tools: readonly ToolSpec[]): string {
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

/** Turns a tagged answer into content blocks; drops tool calls without a name. Never mutates. */
export function splitPlanReActAnswer(message: Message): Message {
  const split = splitPlanReActTags(message.content);
  let content: readonly ContentBlock[] = split;
  // A call with no name cannot be run or answered; some models emit one after their plan.
  if (split.some((b) => b.type === 'tool_call' && !b.name.trim())) content = split.filter((b) => b.type !== 'tool_call' || b.name.trim());
  return content === message.content ? message : { ...message, content };
}

/**
 * Plan–ReAct prompting for models without native thinking, as middleware: the model is asked to
 * write a plan, its reasoning and its answer under `/*PLANNING*\/ /*REPLANNING*\/ /*REASONING*\/
 * /*ACTION*\/ /*FINAL_ANSWER*\/` tags (an instruction after the agent's own); each answer is turned
 * into `reasoning` blocks (with `reasoningKind`) and a tag-free `text` answer.
 * `new ReActAgent({ ..., middleware: [planReActTags()] })`.
 */
export function planReActTags(): Middleware {
  // The same system message object for the same instruction, so its fingerprint digest is cached.
  const shown = new WeakMap<object, Message>();
  const withInstruction = (request: ModelRequest): ModelRequest => {
    const tools = request.tools ?? [];
    const first = request.messages[0];
    const own = first?.role === 'system' ? first : undefined;
    const key: object = own ?? tools;
    let system = shown.get(key);
    if (!system) {
      const tagging = planReActInstruction(tools);
      system = systemMessage(own ? `${messageText(own)}\n\n${tagging}` : tagging);
      shown.set(key, system);
    }
    return { ...request, messages: [system, ...(own ? request.messages.slice(1) : request.messages)] };
  };
  return {
    name: 'planReActTags',
    async wrapModelCall(next, request) {
      const response = await next(withInstruction(request));
      const message = splitPlanReActAnswer(response.message);
      return message === response.message ? response : { ...response, message };
    },
  };
}
