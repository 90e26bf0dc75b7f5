import { ConfigurationError } from '../../errors/replan-error.js';
import type { ToolResultBlock } from '../../messages/content-block.js';
import { type Message, stringifyToolOutput } from '../../messages/message.js';

/** The names of the two tools an agent with `offloadToolResults()` gains. */
export const READ_TOOL_RESULT = 'read_tool_result';
export const SEARCH_TOOL_RESULT = 'search_tool_result';

// The same rough measure as compaction's estimate: about four characters a token.
const CHARS_PER_TOKEN = 4;

/**
 * `offloadToolResults()`'s options: a result longer than `maxTokens` is stored whole (the log keeps
 * it) but the model sees its head and tail and a note, and reads the rest with
 * `read_tool_result({ toolCallId, offset, length })` or `search_tool_result({ toolCallId, pattern })`.
 */
export interface ToolResultsOptions {
  /** The largest result shown whole, in tokens (about 4 characters each). */
  readonly maxTokens: number;
}

/** Checks the options; returns the largest result shown whole, in characters. */
export function resolveToolResults(who: string, options: ToolResultsOptions): number {
  const max = options?.maxTokens;
  if (!Number.isInteger(max) || max < 16)
    throw new ConfigurationError(`${who}: maxTokens must be an integer of at least 16 (tokens), got ${max}.`);
  return max * CHARS_PER_TOKEN;
}

/**
 * What the model is shown of each tool message: the message itself when every result in it is
 * small, else a copy whose large results are previews. Cached per message object, so a turn's
 * messages are previewed once however many requests show them.
 */
export class ToolResultPreviews {
  private readonly shown = new WeakMap<Message, Message>();

  constructor(private readonly maxChars: number) {}

  of(message: Message): Message {
    if (message.role !== 'tool') return message;
    let shown = this.shown.get(message);
    if (!shown) {
      let changed = false;
      const content = message.content.map((block) => {
        if (block.type !== 'tool_result') return block;
        const preview = this.preview(block);
        if (preview !== block) changed = true;
        return preview;
      });
      shown = changed ? { ...message, content } : message;
      this.shown.set(message, shown);
    }
    return shown;
  }

  /** `messages` as the model is shown them (the same array when nothing is previewed). */
  all(messages: readonly Message[]): readonly Message[] {
    let out: Message[] | undefined;
    for (let i = 0; i < messages.length; i++) {
      const message = messages[i] as Message;
      const shown = this.of(message);
      if (shown !== message) out ??= messages.slice(0, i);
      out?.push(shown);
    }
    return out ?? messages;
  }

  private preview(block: ToolResultBlock): ToolResultBlock {
    if (block.name === READ_TOOL_RESULT || block.name === SEARCH_TOOL_RESULT) return block; // bounded already; never a preview of a preview
    const text = offloadedText(block.output);
    if (text.length <= this.maxChars) return block;
    const output = headTailPreview(
      text,
      this.maxChars,
      (headEnd) =>
        `The whole result is kept: read a part with ${READ_TOOL_RESULT}({ "toolCallId": "${block.toolCallId}", "offset": ${headEnd}, "length": ${this.maxChars} }) ` +
        `or find lines with ${SEARCH_TOOL_RESULT}({ "toolCallId": "${block.toolCallId}", "pattern": "…" }).`,
    );
    return { ...block, output };
  }
}

/**
 * A tool output as the offloading shows, reads and searches it: a string as it is; anything else
 * (an MCP tool's structured content or content parts, an agent tool's structured answer) as JSON
 * indented one value a line, so a preview is readable and a search finds the line of a field.
 */
export function offloadedText(output: unknown): string {
  if (typeof output === 'string' || output === undefined) return stringifyToolOutput(output);
  try {
    return JSON.stringify(output, null, 2) ?? stringifyToolOutput(output);
  } catch {
    return stringifyToolOutput(output);
  }
}

/**
 * `text` shortened to its head (60% of `maxChars`) and tail (30%), with a bracketed note that
 * says its length, which characters are shown, and then `howToRead(headEnd)`; `text` itself
 * when it fits. The one shape of every shortened value a model is shown (tool results, step
 * results shown to a replanner).
 */
export function headTailPreview(text: string, maxChars: number, howToRead: (headEnd: number) => string): string {
  if (text.length <= maxChars) return text;
  const head = Math.floor(maxChars * 0.6);
  const tail = Math.floor(maxChars * 0.3);
  const note = `[This result is ${text.length} characters long; shown are characters 0–${head} and ${text.length - tail}–${text.length}. ${howToRead(head)}]`;
  return `${text.slice(0, head)}\n[…]\n${text.slice(text.length - tail)}\n${note}`;
}
