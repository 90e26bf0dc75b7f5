import type {
  ContentBlock,
  ContentBlockInput,
  MediaBlock,
  ReasoningBlock,
  TextBlock,
  ToolCallBlock,
  ToolResultBlock,
} from './content-block.js';
import { hasBytes, toolResultContent, withBase64Media } from './media-check.js';

export type Role = 'system' | 'user' | 'assistant' | 'tool';

/** A provider-neutral chat message. */
export interface Message {
  readonly role: Role;
  readonly content: readonly ContentBlock[];
}

export const textBlock = (text: string): TextBlock => ({ type: 'text', text });

export const systemMessage = (text: string): Message => ({ role: 'system', content: [textBlock(text)] });
export const userMessage = (text: string): Message => ({ role: 'user', content: [textBlock(text)] });
export const assistantMessage = (content: string | readonly ContentBlock[]): Message => ({
  role: 'assistant',
  content: typeof content === 'string' ? [textBlock(content)] : content,
});
export const toolMessage = (results: readonly ToolResultBlock[]): Message => ({ role: 'tool', content: results });

/**
 * The message's visible text: its text blocks joined, reasoning and tool calls left out. A tool
 * message's text is its results' outputs (as the model reads them), one line each.
 */
export function messageText(message: Message | undefined): string {
  if (!message) return '';
  if (message.role === 'tool') return toolMessageText(message);
  let text = '';
  for (const block of message.content) if (block.type === 'text') text += block.text;
  return text;
}

function toolMessageText(message: Message): string {
  const parts: string[] = [];
  for (const block of message.content)
    if (block.type === 'tool_result') parts.push(stringifyToolOutput(block.output));
    else if (block.type === 'text') parts.push(block.text);
  return parts.join('\n');
}

export function toolCallsOf(message: Message | undefined): ToolCallBlock[] {
  if (!message) return [];
  return message.content.filter((b): b is ToolCallBlock => b.type === 'tool_call');
}

export function toolResultsOf(message: Message | undefined): ToolResultBlock[] {
  if (!message) return [];
  return message.content.filter((b): b is ToolResultBlock => b.type === 'tool_result');
}

export function reasoningOf(message: Message | undefined): ReasoningBlock[] {
  if (!message) return [];
  return message.content.filter((b): b is ReasoningBlock => b.type === 'reasoning');
}

/** Turns what a user passes as input into a user message. */
export function toUserMessage(input: string | Message | readonly ContentBlockInput[]): Message {
  if (typeof input === 'string') return userMessage(input);
  if (Array.isArray(input)) return { role: 'user', content: withBase64Media(input) as readonly ContentBlock[] };
  const message = input as Message;
  return message.content.some(hasBytes) ? { ...message, content: withBase64Media(message.content) as readonly ContentBlock[] } : message;
}

/** How an image or file reads where only text can go: `[image image/png]`, `[file invoice.pdf (application/pdf)]`. */
export function mediaPlaceholder(block: MediaBlock): string {
  return block.type === 'image'
    ? `[image ${block.mediaType}]`
    : `[file ${block.filename !== undefined ? `${block.filename} (${block.mediaType})` : block.mediaType}]`;
}

/**
 * Renders a tool output as the text a model reads. Content blocks (a tool that returned text,
 * images and files) read as their text, one block a line, with each image or file as `mediaPlaceholder`.
 */
export function stringifyToolOutput(output: unknown): string {
  if (typeof output === 'string') return output;
  if (output === undefined) return '';
  const content = toolResultContent(output);
  if (content) return content.map((b) => (b.type === 'text' ? b.text : mediaPlaceholder(b))).join('\n');
  try {
    return JSON.stringify(output);
  } catch {
    return String(output);
  }
}
