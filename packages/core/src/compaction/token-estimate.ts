import type { Message } from '../messages/message.js';
import { stringifyToolOutput } from '../messages/message.js';
import { toolResultContent } from '../messages/media-check.js';
import { estimateMediaTokens } from '../messages/media-tokens.js';
import type { ModelRequest, ToolSpec } from '../models/chat-model.js';
import type { Usage } from '../models/usage.js';

// About four characters a token for English and JSON; the calibration below corrects the rest.
const CHARS_PER_TOKEN = 4;
// The per-message framing a chat template adds (role, separators).
const MESSAGE_OVERHEAD = 4;

/**
 * A cheap estimate of a request's input tokens: characters ÷ 4 per message (cached per message
 * object, so an iteration costs one lookup per message), images and files by `estimateMediaTokens`
 * (never by their base64 length), times a ratio learned from the last call's reported
 * `inputTokens`. Deliberately no tokenizer: it runs before every model call.
 */
export class TokenEstimator {
  private readonly sizes = new WeakMap<Message, number>();
  private readonly toolSizes = new WeakMap<readonly ToolSpec[], number>();
  /** Reported ÷ estimated tokens of the last call that reported usage. */
  private ratio = 1;

  /** The estimated tokens of `messages` alone (uncalibrated). */
  messages(messages: readonly Message[]): number {
    let total = 0;
    for (const message of messages) total += this.message(message);
    return total;
  }

  /** The estimated tokens of one message (uncalibrated). */
  message(message: Message): number {
    let size = this.sizes.get(message);
    if (size === undefined) {
      let chars = 0;
      let media = 0;
      for (const block of message.content) {
        if (block.type === 'text') chars += block.text.length;
        else if (block.type === 'reasoning') chars += block.reasoning.length;
        else if (block.type === 'tool_call') chars += block.name.length + (block.rawArgs ?? JSON.stringify(block.args)).length;
        else if (block.type === 'tool_result') {
          // Content blocks count their text as text (the placeholders too) and their media by estimate.
          chars += block.name.length + stringifyToolOutput(block.output).length;
          for (const item of toolResultContent(block.output) ?? []) if (item.type !== 'text') media += estimateMediaTokens(item);
        } else media += estimateMediaTokens(block);
      }
      size = Math.ceil(chars / CHARS_PER_TOKEN) + media + MESSAGE_OVERHEAD;
      this.sizes.set(message, size);
    }
    return size;
  }

  /** The estimated tokens of the tools, the response format and the settings' framing (uncalibrated). */
  private fixed(request: ModelRequest): number {
    let size = 0;
    if (request.tools) {
      const known = this.toolSizes.get(request.tools);
      size += known ?? Math.ceil(JSON.stringify(request.tools).length / CHARS_PER_TOKEN);
      if (known === undefined) this.toolSizes.set(request.tools, size);
    }
    if (request.responseFormat) size += Math.ceil(JSON.stringify(request.responseFormat.schema).length / CHARS_PER_TOKEN);
    return size;
  }

  /** Uncalibrated estimate of a whole request. */
  raw(request: ModelRequest): number {
    return this.fixed(request) + this.messages(request.messages);
  }

  /** Scales an uncalibrated count by what the model last reported. */
  calibrated(raw: number): number {
    return Math.ceil(raw * this.ratio);
  }

  /** The calibrated estimate of a request. */
  estimate(request: ModelRequest): number {
    return this.calibrated(this.raw(request));
  }

  /** Learns from a call's reported input tokens (ignored when absent or zero). */
  calibrate(request: ModelRequest, usage: Usage | undefined): void {
    if (!usage || usage.inputTokens <= 0) return;
    const raw = this.raw(request);
    // Bounded, so one odd report (a cached prefix counted apart, a proxy's rounding) cannot swing it wildly.
    if (raw > 0) this.ratio = Math.min(4, Math.max(0.25, usage.inputTokens / raw));
  }
}
