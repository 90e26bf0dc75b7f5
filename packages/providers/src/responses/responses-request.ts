import type { ContentBlock, Message, ModelRequest, ModelSettings, ReasoningBlock } from '@replan/core';
import { type ToolChoice, isMediaBlock, mediaPlaceholder } from '@replan/core/agent-kit';

import { plainText } from '../chat/chat-content.js';
import { RESPONSES_MEDIA } from '../media/media-profile.js';
import { responsesParts, responsesToolOutput } from './responses-media.js';
import { mergeSettings } from '../chat/chat-settings.js';
import { responseFormatOf } from '../chat/chat-request.js';
import { isRecord, type Json } from '../reasoning/json.js';
import { isEmptySchema } from '../schema/strict-json-schema.js';
import { cacheKeyFields } from '../cache/prompt-caching.js';

/** The provider tag of reasoning blocks made from Responses API reasoning items. */
export const RESPONSES_PROVIDER = 'openai';

export interface ResponsesRequestOptions {
  readonly model: string;
  readonly defaults?: ModelSettings;
  /** Ask for `reasoning.encrypted_content` so reasoning can be sent back statelessly (default true). */
  readonly includeEncryptedReasoning?: boolean;
  /** Reasoning summary level; sent when set, or as `auto` when the request asks for reasoning. */
  readonly reasoningSummary?: 'auto' | 'concise' | 'detailed';
  /** Send `req.cache` as `prompt_cache_key` / `prompt_cache_retention` (default true). */
  readonly promptCacheKey?: boolean;
}

export interface ResponsesRequestBody {
  readonly body: Json;
  readonly structuredSchema?: Json;
}

/**
 * A stateless Responses API request (`store: false`): the whole conversation goes in `input`,
 * with the reasoning items of earlier turns sent back with their `encrypted_content`, and the ids
 * of the items that followed them (function calls, messages) so the server can pair them.
 */
export function buildResponsesRequest(req: ModelRequest, options: ResponsesRequestOptions): ResponsesRequestBody {
  const settings = mergeSettings(options.defaults, req.settings);
  const body: Json = { model: options.model, input: toResponsesInput(req.messages, options.model), store: false };
  if (options.includeEncryptedReasoning !== false) body.include = ['reasoning.encrypted_content'];
  if (req.tools?.length) {
    body.tools = req.tools.map((t) => {
      const parameters: Json = { ...t.parameters };
      delete parameters.$schema;
      if (isEmptySchema(parameters)) Object.assign(parameters, { type: 'object', properties: {} });
      return { type: 'function', name: t.name, description: t.description, parameters, strict: false };
    });
    if (req.toolChoice) body.tool_choice = toolChoiceOf(req.toolChoice);
  }
  let structuredSchema: Json | undefined;
  if (req.responseFormat) {
    const format = responseFormatOf(req.responseFormat);
    const strict = req.responseFormat.strict !== false;
    body.text = {
      format: {
        type: 'json_schema',
        name: format.name,
        ...(req.responseFormat.description ? { description: req.responseFormat.description } : {}),
        schema: format.schema,
        strict,
      },
    };
    structuredSchema = format.original;
  }
  if (settings.temperature !== undefined) body.temperature = settings.temperature;
  if (settings.topP !== undefined) body.top_p = settings.topP;
  if (settings.maxTokens !== undefined) body.max_output_tokens = settings.maxTokens;
  const effort = settings.reasoning?.effort;
  if (effort !== undefined || options.reasoningSummary !== undefined)
    body.reasoning = { ...(effort !== undefined ? { effort } : {}), summary: options.reasoningSummary ?? 'auto' };
  if (options.promptCacheKey !== false) Object.assign(body, cacheKeyFields(req.cache));
  Object.assign(body, settings.extra);
  return structuredSchema ? { body, structuredSchema } : { body };
}

const toolChoiceOf = (choice: ToolChoice): unknown => (typeof choice === 'string' ? choice : { type: 'function', name: choice.name });

const textOf = (content: readonly ContentBlock[], separator: string) =>
  content
    .filter((b) => b.type === 'text')
    .map((b) => (b as { text: string }).text)
    .join(separator);

/**
 * Core messages as Responses API input items. Images and files go as `input_image` /
 * `input_file` parts of user messages and, natively, of `function_call_output`s (a tool's
 * returned images reach the model with its result); elsewhere they are named in the text.
 */
export function toResponsesInput(messages: readonly Message[], model?: string): Json[] {
  const media = { profile: RESPONSES_MEDIA, model };
  const input: Json[] = [];
  for (const message of messages) {
    if (message.role === 'system') input.push({ role: 'system', content: plainText(message.content, '\n\n') });
    else if (message.role === 'assistant') pushAssistant(input, message.content);
    else {
      for (const block of message.content)
        if (block.type === 'tool_result')
          input.push({ type: 'function_call_output', call_id: block.toolCallId, output: responsesToolOutput(block.output, media) });
      const text = textOf(message.content, '\n\n');
      if (message.role === 'user' && message.content.some(isMediaBlock))
        input.push({ role: 'user', content: responsesParts(message.content, media) });
      else if (message.role === 'user' && (text || !message.content.some((b) => b.type === 'tool_result')))
        input.push({ role: 'user', content: text });
    }
  }
  return input;
}

interface FollowingItem {
  readonly type: string;
  readonly id: string;
  readonly call_id?: string;
}

function pushAssistant(input: Json[], content: readonly ContentBlock[]): void {
  // Ids of items that followed a reasoning item we send back (never without it).
  const callIds = new Map<string, string>();
  const messageIds: string[] = [];
  for (const block of content) {
    if (block.type !== 'reasoning' || block.provider !== RESPONSES_PROVIDER) continue;
    for (const f of followingOf(block)) {
      if (f.type === 'function_call' && f.call_id) callIds.set(f.call_id, f.id);
      else if (f.type === 'message') messageIds.push(f.id);
    }
  }
  for (const block of content) {
    if (block.type === 'reasoning') {
      const item = reasoningItemOf(block);
      if (item) input.push(item);
    } else if (block.type === 'text') {
      if (!block.text) continue;
      const id = messageIds.shift();
      input.push(
        id
          ? {
              type: 'message',
              role: 'assistant',
              id,
              status: 'completed',
              content: [{ type: 'output_text', text: block.text, annotations: [] }],
            }
          : { role: 'assistant', content: block.text },
      );
    } else if (isMediaBlock(block)) {
      // Assistant content is text only: an image the model made is named, not sent back.
      input.push({ role: 'assistant', content: mediaPlaceholder(block) });
    } else if (block.type === 'tool_call') {
      const id = callIds.get(block.id);
      input.push({
        type: 'function_call',
        call_id: block.id,
        name: block.name,
        arguments: JSON.stringify(block.args),
        ...(id ? { id } : {}),
      });
    }
  }
}

function followingOf(block: ReasoningBlock): FollowingItem[] {
  const following = block.providerData?.following;
  return Array.isArray(following)
    ? following.filter((f): f is FollowingItem => isRecord(f) && typeof f.id === 'string' && typeof f.type === 'string')
    : [];
}

/** The reasoning item to send back: id, summary, encrypted content (and reasoning text, when the model gave some). */
function reasoningItemOf(block: ReasoningBlock): Json | undefined {
  if (block.provider !== RESPONSES_PROVIDER) return undefined;
  const item = block.providerData?.item;
  if (!isRecord(item) || typeof item.id !== 'string') return undefined;
  return {
    type: 'reasoning',
    id: item.id,
    summary: Array.isArray(item.summary) ? item.summary : [],
    ...(Array.isArray(item.content) && item.content.length ? { content: item.content } : {}),
    ...(typeof item.encrypted_content === 'string' ? { encrypted_content: item.encrypted_content } : {}),
  };
}
