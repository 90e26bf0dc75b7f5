import type { ContentBlock, ModelResponse, ReasoningBlock, Usage } from '@replan/core';
import type { FinishReason } from '@replan/core/agent-kit';
import { parseArguments } from '../chat/tool-call-accumulator.js';
import { isRecord, nonEmptyString, type Json } from '../reasoning/json.js';
import { cacheWriteTokensOf } from '../cache/prompt-caching.js';
import { RESPONSES_PROVIDER } from './responses-request.js';

const count = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/**
 * The blocks of Responses API output items, in order: a `reasoning` block per reasoning item
 * (summary text, `encrypted_content` as `data`, the item and the ids of the items after it in
 * `providerData`), text from messages (refusals too), a `tool_call` per function call.
 */
export function blocksOfOutput(output: readonly unknown[]): { blocks: ContentBlock[]; refused: boolean } {
  const blocks: ContentBlock[] = [];
  let refused = false;
  let following: Json[] | undefined; // ids of the items after the last reasoning item
  for (const raw of output) {
    if (!isRecord(raw)) continue;
    if (raw.type === 'reasoning') {
      following = [];
      blocks.push(reasoningBlockOf(raw, following));
      continue;
    }
    if (following && typeof raw.id === 'string' && (raw.type === 'function_call' || raw.type === 'message'))
      following.push({ type: raw.type, id: raw.id, ...(typeof raw.call_id === 'string' ? { call_id: raw.call_id } : {}) });
    if (raw.type === 'message' && Array.isArray(raw.content)) {
      let text = '';
      for (const part of raw.content) {
        if (!isRecord(part)) continue;
        if (part.type === 'output_text' && typeof part.text === 'string') text += part.text;
        else if (part.type === 'refusal' && typeof part.refusal === 'string') {
          text += part.refusal;
          refused = true;
        }
      }
      const last = blocks.at(-1);
      if (text && last?.type === 'text') blocks[blocks.length - 1] = { type: 'text', text: last.text + text };
      else if (text) blocks.push({ type: 'text', text });
    } else if (raw.type === 'function_call') {
      blocks.push({
        type: 'tool_call',
        id: typeof raw.call_id === 'string' ? raw.call_id : String(raw.id ?? ''),
        name: typeof raw.name === 'string' ? raw.name : '',
        ...parseArguments(typeof raw.arguments === 'string' ? raw.arguments : ''),
      });
    }
  }
  return { blocks, refused };
}

function reasoningBlockOf(item: Json, following: Json[]): ReasoningBlock {
  const summary = Array.isArray(item.summary) ? item.summary : [];
  const content = Array.isArray(item.content) ? item.content : [];
  const texts = (summary.length ? summary : content).map((p) => (isRecord(p) && typeof p.text === 'string' ? p.text : '')).filter(Boolean);
  const text = texts.join('\n\n');
  const data = nonEmptyString(item.encrypted_content);
  return {
    type: 'reasoning',
    reasoning: text,
    ...(data ? { data } : {}),
    ...(data && !text ? { redacted: true } : {}),
    provider: RESPONSES_PROVIDER,
    providerData: { item: { ...item }, following },
  };
}

/** Usage of a Responses API response. */
export function responsesUsageOf(raw: unknown): Usage | undefined {
  if (!isRecord(raw)) return undefined;
  const input = count(raw.input_tokens);
  const output = count(raw.output_tokens);
  if (input === undefined && output === undefined) return undefined;
  const out = isRecord(raw.output_tokens_details) ? raw.output_tokens_details : {};
  const inp = isRecord(raw.input_tokens_details) ? raw.input_tokens_details : {};
  const reasoning = count(out.reasoning_tokens);
  const cached = count(inp.cached_tokens);
  const written = cacheWriteTokensOf(raw, inp);
  return {
    inputTokens: input ?? 0,
    outputTokens: output ?? 0,
    ...(reasoning !== undefined ? { reasoningTokens: reasoning } : {}),
    ...(cached !== undefined ? { cachedTokens: cached } : {}),
    ...(written !== undefined ? { cacheWriteTokens: written } : {}),
  };
}

/** A whole Responses API response as a `ModelResponse`. */
export function responseOf(raw: Json): ModelResponse {
  const { blocks, refused } = blocksOfOutput(Array.isArray(raw.output) ? raw.output : []);
  const usage = responsesUsageOf(raw.usage);
  return {
    message: { role: 'assistant', content: blocks },
    finishReason: finishOf(raw, blocks, refused),
    ...(usage ? { usage } : {}),
  };
}

function finishOf(raw: Json, blocks: readonly ContentBlock[], refused: boolean): FinishReason {
  if (refused) return 'refusal';
  if (raw.status === 'incomplete') {
    const reason = isRecord(raw.incomplete_details) ? raw.incomplete_details.reason : undefined;
    if (reason === 'content_filter') return 'content_filter';
    return 'length';
  }
  return blocks.some((b) => b.type === 'tool_call') ? 'tool_calls' : 'stop';
}
