import type {
  JSONValue,
  LanguageModelV3Message,
  LanguageModelV3Prompt,
  LanguageModelV3ToolResultOutput,
  LanguageModelV3ToolResultPart,
} from '@ai-sdk/provider';
import type { ContentBlock, Message, ToolResultBlock } from '@replan/core';
import { reasoningOptionsOf, toolCallOptionsOf } from './provider-metadata.js';

type AssistantPart = Extract<LanguageModelV3Message, { role: 'assistant' }>['content'][number];
type UserPart = Extract<LanguageModelV3Message, { role: 'user' }>['content'][number];

/**
 * Replan messages as an AI SDK prompt. System messages become their text; reasoning goes back with
 * the provider metadata it came with (signatures survive the next turn); tool results become
 * `text` / `json` outputs (`error-*` when `isError`). Text in a tool message follows as a user
 * message, since an AI SDK tool message holds tool results only. `skip(type)` is told of a block
 * no AI SDK part can carry.
 */
export function toPrompt(messages: readonly Message[], skip: (what: string) => void): LanguageModelV3Prompt {
  const prompt: LanguageModelV3Prompt = [];
  for (const message of messages) {
    switch (message.role) {
      case 'system':
        prompt.push({ role: 'system', content: textOf(message.content) });
        break;
      case 'user': {
        const content = userParts(message.content, skip);
        if (content.length > 0) prompt.push({ role: 'user', content });
        break;
      }
      case 'assistant':
        prompt.push({ role: 'assistant', content: assistantParts(message.content, skip) });
        break;
      case 'tool': {
        const results = message.content.filter((b): b is ToolResultBlock => b.type === 'tool_result').map(toolResultPart);
        if (results.length > 0) prompt.push({ role: 'tool', content: results });
        const text = textOf(message.content);
        if (text) prompt.push({ role: 'user', content: [{ type: 'text', text }] });
        break;
      }
    }
  }
  return prompt;
}

const textOf = (content: readonly ContentBlock[]): string =>
  content
    .filter((b) => b.type === 'text')
    .map((b) => b.text)
    .join('');

function userParts(content: readonly ContentBlock[], skip: (what: string) => void): UserPart[] {
  const parts: UserPart[] = [];
  for (const block of content)
    if (block.type === 'text') parts.push({ type: 'text', text: block.text });
    else skip(`a ${block.type} block in a user message`);
  return parts;
}

function assistantParts(content: readonly ContentBlock[], skip: (what: string) => void): AssistantPart[] {
  const parts: AssistantPart[] = [];
  for (const block of content) {
    switch (block.type) {
      case 'text':
        parts.push({ type: 'text', text: block.text });
        break;
      case 'reasoning': {
        const providerOptions = reasoningOptionsOf(block);
        parts.push({ type: 'reasoning', text: block.reasoning, ...(providerOptions ? { providerOptions } : {}) });
        break;
      }
      case 'tool_call': {
        const providerOptions = toolCallOptionsOf(block);
        parts.push({
          type: 'tool-call',
          toolCallId: block.id,
          toolName: block.name,
          input: block.args,
          ...(providerOptions ? { providerOptions } : {}),
        });
        break;
      }
      default:
        skip(`a ${block.type} block in an assistant message`);
    }
  }
  return parts;
}

function toolResultPart(block: ToolResultBlock): LanguageModelV3ToolResultPart {
  return { type: 'tool-result', toolCallId: block.toolCallId, toolName: block.name, output: toolOutputOf(block) };
}

/** A string output is text; anything else is sent as the JSON every store keeps. */
function toolOutputOf(block: ToolResultBlock): LanguageModelV3ToolResultOutput {
  const error = block.isError === true;
  if (typeof block.output === 'string') return { type: error ? 'error-text' : 'text', value: block.output };
  const value = jsonOf(block.output);
  if (value === undefined) return { type: error ? 'error-text' : 'text', value: '' };
  return { type: error ? 'error-json' : 'json', value };
}

function jsonOf(value: unknown): JSONValue | undefined {
  if (value === undefined) return undefined;
  try {
    const text = JSON.stringify(value);
    return text === undefined ? undefined : (JSON.parse(text) as JSONValue);
  } catch {
    return String(value);
  }
}
