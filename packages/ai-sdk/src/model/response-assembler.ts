import type {
  LanguageModelV3Content,
  LanguageModelV3FinishReason,
  LanguageModelV3StreamPart,
  LanguageModelV3Usage,
  SharedV3ProviderMetadata,
} from '@ai-sdk/provider';
import type { ContentBlock, Message, ModelResponse } from '@replan/core';
import type { ModelStreamPart } from '@replan/core/agent-kit';
import { finishReasonOf, usageOf } from './finish-usage.js';
import { mediaBlockOf } from './media-parts.js';
import { mergeMetadata, reasoningBlockOf, toolCallSignatureOf } from './provider-metadata.js';

type Entry =
  | { kind: 'text'; text: string }
  | { kind: 'media'; block: ContentBlock }
  | { kind: 'reasoning'; text: string; metadata: SharedV3ProviderMetadata | undefined }
  | { kind: 'tool'; index: number; id: string; name: string; input: string; metadata: SharedV3ProviderMetadata | undefined };

/** What the assembler is told when a part cannot become a block, or the provider warns. */
export interface AssemblerSink {
  /** A part or content type replan has no block for (said once per type by the model). */
  readonly ignore: (type: string) => void;
  /** A warning of the provider (an unsupported setting, …). */
  readonly warn: (message: string) => void;
}

/** Raised for a stream's `error` part; the model maps it with the partial message. */
export class StreamErrorPart {
  constructor(readonly error: unknown) {}
}

/**
 * Builds a replan response from AI SDK output — the parts of `doStream`, or the content of
 * `doGenerate` — and turns each streamed part into replan's stream parts. Blocks keep the order in
 * which their parts started; a reasoning part's metadata is merged over its start, deltas and end
 * (Anthropic sends the signature last).
 */
export class ResponseAssembler {
  private readonly entries: Entry[] = [];
  private readonly byId = new Map<string, Entry>();
  private tools = 0;
  private finishReason: LanguageModelV3FinishReason | undefined;
  private usage: LanguageModelV3Usage | undefined;
  /** True once any part with content or a finish arrived. */
  receivedAnything = false;

  constructor(private readonly sink: AssemblerSink) {}

  /** One streamed part; returns replan's stream parts for it. Throws `StreamErrorPart` for an `error` part. */
  push(part: LanguageModelV3StreamPart): ModelStreamPart[] {
    switch (part.type) {
      case 'text-start':
        this.open(`text:${part.id}`, { kind: 'text', text: '' });
        return [];
      case 'text-delta': {
        const entry = this.open(`text:${part.id}`, { kind: 'text', text: '' });
        if (entry.kind === 'text') entry.text += part.delta;
        return part.delta ? [{ type: 'text-delta', delta: part.delta }] : [];
      }
      case 'reasoning-start':
      case 'reasoning-delta':
      case 'reasoning-end': {
        const entry = this.open(`reasoning:${part.id}`, { kind: 'reasoning', text: '', metadata: undefined });
        if (entry.kind !== 'reasoning') return [];
        entry.metadata = mergeMetadata(entry.metadata, part.providerMetadata);
        if (part.type !== 'reasoning-delta' || !part.delta) return [];
        entry.text += part.delta;
        return [{ type: 'reasoning-delta', delta: part.delta }];
      }
      case 'tool-input-start': {
        if (part.providerExecuted) return this.ignored('provider-executed tool-input-start');
        const entry = this.toolEntry(part.id, part.toolName, part.providerMetadata);
        return [{ type: 'tool-call-delta', index: entry.index, id: entry.id, name: entry.name, argsDelta: '' }];
      }
      case 'tool-input-delta': {
        const entry = this.byId.get(`tool:${part.id}`);
        if (entry?.kind !== 'tool') return [];
        entry.input += part.delta;
        return part.delta ? [{ type: 'tool-call-delta', index: entry.index, argsDelta: part.delta }] : [];
      }
      case 'text-end':
      case 'tool-input-end':
        return [];
      case 'tool-call':
        return this.toolCall(part);
      case 'file':
        this.addFile(part);
        return [];
      case 'finish':
        this.receivedAnything = true;
        this.finishReason = part.finishReason;
        this.usage = part.usage;
        return [];
      case 'error':
        throw new StreamErrorPart(part.error);
      case 'stream-start':
        for (const warning of part.warnings) this.sink.warn(warningText(warning));
        return [];
      // Known parts replan has no block for: sources and response ids are not kept; raw chunks only come when asked for.
      case 'source':
      case 'response-metadata':
      case 'raw':
        return [];
      default:
        return this.ignored(partType(part));
    }
  }

  /** The content of a `doGenerate` result, in order. */
  addContent(content: readonly LanguageModelV3Content[]): void {
    content.forEach((item, i) => {
      switch (item.type) {
        case 'text':
          this.push({ type: 'text-delta', id: `g${i}`, delta: item.text });
          break;
        case 'reasoning':
          this.push({
            type: 'reasoning-delta',
            id: `g${i}`,
            delta: item.text,
            ...(item.providerMetadata ? { providerMetadata: item.providerMetadata } : {}),
          });
          break;
        case 'tool-call':
          this.toolCall(item);
          break;
        case 'file':
          this.addFile(item);
          break;
        case 'source':
          break;
        default:
          this.ignored(partType(item));
      }
    });
  }

  finish(reason: LanguageModelV3FinishReason, usage: LanguageModelV3Usage): void {
    this.receivedAnything = true;
    this.finishReason = reason;
    this.usage = usage;
  }

  /** The assistant message so far (also what a failed stream had produced). */
  message(): Message {
    const content: ContentBlock[] = [];
    for (const entry of this.entries) {
      if (entry.kind === 'text') {
        if (entry.text) content.push({ type: 'text', text: entry.text });
      } else if (entry.kind === 'media') content.push(entry.block);
      else if (entry.kind === 'reasoning') content.push(reasoningBlockOf(entry.text, entry.metadata));
      else content.push(toolCallBlockOf(entry));
    }
    return { role: 'assistant', content };
  }

  /** The whole response, or `undefined` when the model finished with an error. */
  response(): ModelResponse | undefined {
    const message = this.message();
    const finishReason = finishReasonOf(
      this.finishReason,
      message.content.some((b) => b.type === 'tool_call'),
    );
    if (finishReason === undefined) return undefined;
    const usage = usageOf(this.usage);
    return { message, finishReason, ...(usage ? { usage } : {}) };
  }

  /** The raw finish reason, for the error of a call that finished with `error`. */
  get rawFinishReason(): string | undefined {
    return this.finishReason?.raw;
  }

  /** A file the model generated (an image, usually): an image or file block in its place. */
  private addFile(file: { readonly mediaType: string; readonly data: string | Uint8Array | URL }): void {
    this.receivedAnything = true;
    this.entries.push({ kind: 'media', block: mediaBlockOf(file) });
  }

  private open(key: string, fresh: Entry): Entry {
    const existing = this.byId.get(key);
    if (existing) return existing;
    this.receivedAnything = true;
    this.entries.push(fresh);
    this.byId.set(key, fresh);
    return fresh;
  }

  private toolEntry(id: string, name: string, metadata: SharedV3ProviderMetadata | undefined): Extract<Entry, { kind: 'tool' }> {
    const entry = this.open(`tool:${id}`, { kind: 'tool', index: this.tools, id, name, input: '', metadata: undefined });
    if (entry.kind !== 'tool') throw new Error('unreachable: a tool id keys a tool entry');
    if (entry.index === this.tools) this.tools++;
    entry.metadata = mergeMetadata(entry.metadata, metadata);
    return entry;
  }

  /** A complete tool call: its final input replaces the streamed deltas; one not streamed before is one whole delta. */
  private toolCall(part: Extract<LanguageModelV3Content, { type: 'tool-call' }>): ModelStreamPart[] {
    if (part.providerExecuted) return this.ignored('provider-executed tool-call');
    const known = this.byId.has(`tool:${part.toolCallId}`);
    const entry = this.toolEntry(part.toolCallId, part.toolName, part.providerMetadata);
    entry.input = part.input;
    return known ? [] : [{ type: 'tool-call-delta', index: entry.index, id: entry.id, name: entry.name, argsDelta: part.input }];
  }

  private ignored(type: string): [] {
    this.sink.ignore(type);
    return [];
  }
}

function toolCallBlockOf(entry: Extract<Entry, { kind: 'tool' }>): ContentBlock {
  const signature = toolCallSignatureOf(entry.metadata);
  const base = { type: 'tool_call' as const, id: entry.id, name: entry.name, ...(signature !== undefined ? { signature } : {}) };
  const raw = entry.input.trim() === '' ? '{}' : entry.input;
  try {
    const args: unknown = JSON.parse(raw);
    if (typeof args === 'object' && args !== null && !Array.isArray(args)) return { ...base, args: args as Record<string, unknown> };
    return { ...base, args: {}, rawArgs: entry.input, argsError: 'the arguments are not a JSON object' };
  } catch (error) {
    return { ...base, args: {}, rawArgs: entry.input, argsError: error instanceof Error ? error.message : String(error) };
  }
}

const partType = (part: unknown): string => {
  const type = (part as { type?: unknown }).type;
  return typeof type === 'string' ? type : typeof type;
};

function warningText(warning: { type: string; feature?: string; details?: string; message?: string }): string {
  if (warning.message !== undefined) return warning.message;
  const details = warning.details ? `: ${warning.details}` : '';
  return `${warning.type === 'unsupported' ? 'unsupported' : warning.type} ${warning.feature ?? ''}${details}`.trim();
}
