import type { ContentBlock, ImageBlock, Message, ModelResponse, Usage } from '@replan/core';
import type { ModelStreamPart } from '@replan/core/agent-kit';
import type { ProviderProfileName } from '../profiles/provider-profile.js';
import { isRecord, type Json } from '../reasoning/json.js';
import { ReasoningAssembler } from '../reasoning/reasoning-assembler.js';
import { ThinkTagSplitter, type ContentSegment, type ThinkTagsMode } from '../reasoning/think-tags.js';
import { chatUsageOf, finishReasonOf } from './chat-usage.js';
import { outputImages } from './output-images.js';
import { ToolCallAccumulator } from './tool-call-accumulator.js';

/**
 * Builds one assistant message from Chat Completions output. Streaming feeds it each
 * `choices[0].delta`; a non-streaming call feeds it the whole `choices[0].message` once — the same
 * code, so both give the same blocks for the same content. Repeated `role` fields, empty `content`
 * and empty argument continuations change nothing. Thinking written into the content as
 * `<think>…</think>` becomes a `reasoning` block (provider `think-tags`) per `thinkTags`; call
 * `end()` once the content is complete.
 */
export class ChatAccumulator {
  private text = '';
  private tagged = '';
  private refusal = '';
  private readonly reasoning: ReasoningAssembler;
  private readonly tools = new ToolCallAccumulator();
  /** Images the model made (`images` on the message or its deltas). */
  private readonly images: ImageBlock[] = [];
  private rawFinish: unknown;
  private usage: Usage | undefined;
  private received = false;
  private readonly thinkTags: ThinkTagSplitter;

  constructor(profile: ProviderProfileName, thinkTags: ThinkTagsMode = 'auto') {
    this.reasoning = new ReasoningAssembler(profile);
    this.thinkTags = new ThinkTagSplitter(thinkTags);
  }

  /** True once any choice content or usage arrived. */
  get receivedAnything(): boolean {
    return this.received;
  }

  /** Adds a delta (or, with `whole`, a complete message); returns the stream parts it makes. */
  push(delta: unknown, whole = false): ModelStreamPart[] {
    if (!isRecord(delta)) return [];
    this.received = true;
    const parts: ModelStreamPart[] = [];
    const reasoning = this.reasoning.push(delta, whole);
    if (reasoning) parts.push({ type: 'reasoning-delta', delta: reasoning });
    this.addContent(this.thinkTags.push(contentText(delta.content)), parts);
    if (typeof delta.refusal === 'string' && delta.refusal) {
      this.refusal += delta.refusal;
      parts.push({ type: 'text-delta', delta: delta.refusal });
    }
    if (Array.isArray(delta.tool_calls))
      for (const d of this.tools.push(delta.tool_calls, whole)) parts.push({ type: 'tool-call-delta', ...d });
    if (Array.isArray(delta.images)) this.images.push(...outputImages(delta.images));
    return parts;
  }

  /** The content is complete: returns the stream parts for what was held back at a chunk boundary. */
  end(): ModelStreamPart[] {
    const parts: ModelStreamPart[] = [];
    this.addContent(this.thinkTags.end(), parts);
    return parts;
  }

  finish(reason: unknown): void {
    if (reason !== null && reason !== undefined) this.rawFinish = reason;
  }

  addUsage(raw: unknown): void {
    const usage = chatUsageOf(raw);
    if (usage) {
      this.usage = usage;
      this.received = true;
    }
  }

  /** The assistant message so far: reasoning blocks (think tags last), then text, images, then tool calls. */
  message(): Message {
    const content: ContentBlock[] = [...this.reasoning.blocks()];
    let tagged = this.tagged;
    let answer = this.text;
    for (const s of this.thinkTags.peekEnd())
      if (s.kind === 'reasoning') tagged += s.text;
      else answer += s.text;
    if (tagged) content.push({ type: 'reasoning', reasoning: tagged, provider: 'think-tags' });
    const text = answer || this.refusal;
    if (text) content.push({ type: 'text', text });
    content.push(...this.images, ...this.tools.blocks());
    return { role: 'assistant', content };
  }

  private addContent(segments: readonly ContentSegment[], parts: ModelStreamPart[]): void {
    for (const { kind, text } of segments) {
      if (kind === 'reasoning') this.tagged += text;
      else this.text += text;
      parts.push({ type: kind === 'reasoning' ? 'reasoning-delta' : 'text-delta', delta: text });
    }
  }

  response(): ModelResponse {
    const message = this.message();
    return {
      message,
      finishReason: finishReasonOf(this.rawFinish, this.tools.size > 0, !this.text && this.refusal !== ''),
      ...(this.usage ? { usage: this.usage } : {}),
    };
  }
}

/** Text of `content`: a string, or an array of parts (`{type: "text", text}`) some servers send. */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  let text = '';
  for (const part of content as Json[]) if (isRecord(part) && part.type === 'text' && typeof part.text === 'string') text += part.text;
  return text;
}
