import type {
  JSONValue,
  LanguageModelV3Message,
  LanguageModelV3Prompt,
  LanguageModelV3ToolResultOutput,
  LanguageModelV3ToolResultPart,
} from '@ai-sdk/provider';
import { toolResultContent, type ContentBlock, type Message, type ToolResultBlock } from '@replan/core';
import { contentItemsOf, filePartOf, type MediaTarget } from './media-parts.js';
import { reasoningOptionsOf, toolCallOptionsOf } from './provider-metadata.js';

type AssistantPart = Extract<LanguageModelV3Message, { role: 'assistant' }>['content'][number];
type UserPart = Extract<LanguageModelV3Message, { role: 'user' }>['content'][number];

/**
 * Replan messages as an AI SDK prompt. System messages become their text; reasoning goes back with
 * the provider metadata it came with (signatures survive the next turn); images and files become
 * file parts; tool results become `text` / `json` outputs (`error-*` when `isError`), or `content`
 * when the tool returned text, image and file blocks. Text in a tool message follows as a user
 * message, since an AI SDK tool message holds tool results only. `skip(what)` is told of a block
 * no AI SDK part can carry; `target` names the model in errors and says which images it takes.
 */
export function toPrompt(messages: readonly Message[], skip: (what: string) => void, target: MediaTarget): LanguageModelV3Prompt {
  const prompt: LanguageModelV3Prompt = [];
  for (const message of messages) {
    switch (message.role) {
      case 'system':
        prompt.push({ role: 'system', content: textOf(message.content) });
        break;
      case 'user': {
        const content = userParts(message.content, skip, target);
        if (content.length > 0) prompt.push({ role: 'user', content });
        break;
      }
      case 'assistant':
        prompt.push({ role: 'assistant', content: assistantParts(message.content, skip, target) });
        break;
      case 'tool': {
        const results = message.content.filter((b): b is ToolResultBlock => b.type === 'tool_result').map((b) => toolResultPart(b, target));
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

function userParts(content: readonly ContentBlock[], skip: (what: string) => void, target: MediaTarget): UserPart[] {
  const parts: UserPart[] = [];
  for (const block of content)
    if (block.type === 'text') parts.push({ type: 'text', text: block.text });
    else if (block.type === 'image' || block.type === 'file') parts.push(filePartOf(block, target));
    else skip(`a ${block.type} block in a user message`);
  return parts;
}

function assistantParts(content: readonly ContentBlock[], skip: (what: string) => void, target: MediaTarget): AssistantPart[] {
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
      case 'image':
      case 'file':
        parts.push(filePartOf(block, target, false)); // the model's own output goes back as it came
        break;
      default:
        skip(`a ${block.type} block in an assistant message`);
    }
  }
  return parts;
}

function toolResultPart(block: ToolResultBlock, target: MediaTarget): LanguageModelV3ToolResultPart {
  return { type: 'tool-result', toolCallId: block.toolCallId, toolName: block.name, output: toolOutputOf(block, target) };
}

/** Content blocks are `content`; a string output is text; anything else is sent as the JSON every store keeps. */
function toolOutputOf(block: ToolResultBlock, target: MediaTarget): LanguageModelV3ToolResultOutput {
  const content = toolResultContent(block.output);
  if (content) return { type: 'content', value: contentItemsOf(content, target) };
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
