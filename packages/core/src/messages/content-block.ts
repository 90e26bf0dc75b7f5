/** What kind of thinking a reasoning block holds, when a planner tagged it. */
export type ReasoningKind = 'planning' | 'replanning' | 'reasoning' | 'action';

/** Plain text shown to the user or the model. */
export interface TextBlock {
  readonly type: 'text';
  readonly text: string;
}

/**
 * A model's reasoning. `signature`, `redacted` and `data` are the provider's and must be sent
 * back unchanged on the next turn, so a block is never rewritten once produced.
 */
export interface ReasoningBlock {
  readonly type: 'reasoning';
  /** The reasoning text; may be empty when the provider only returned a signature or encrypted data. */
  readonly reasoning: string;
  readonly reasoningKind?: ReasoningKind;
  /** Opaque provider signature that must round-trip. */
  readonly signature?: string;
  /** True when the provider returned encrypted reasoning in `data` instead of text. */
  readonly redacted?: boolean;
  /** Encrypted or opaque reasoning payload. */
  readonly data?: string;
  /** Which provider shape produced the block (e.g. `anthropic`, `openrouter`, `gemini`). */
  readonly provider?: string;
  /** Provider fields that must be replayed verbatim (e.g. an OpenRouter `reasoning_details` item). */
  readonly providerData?: Record<string, unknown>;
  /**
   * The id of the model that produced this signed or encrypted block, set when a `fallbackModel`
   * answered: such a block goes back to that model only (two models behind one gateway share a
   * `provider` tag but not their signatures).
   */
  readonly model?: string;
}

/** A request from the model to run a tool. */
export interface ToolCallBlock {
  readonly type: 'tool_call';
  /** The provider's id, kept byte for byte. */
  readonly id: string;
  readonly name: string;
  /** Parsed JSON arguments. */
  readonly args: Record<string, unknown>;
  /** When the model's arguments were not valid JSON: the raw text and the parse error. */
  readonly rawArgs?: string;
  readonly argsError?: string;
  /** Opaque provider signature bound to this call (e.g. a Gemini thought signature). */
  readonly signature?: string;
}

/** The result of a tool call, sent back to the model. */
export interface ToolResultBlock {
  readonly type: 'tool_result';
  readonly toolCallId: string;
  readonly name: string;
  /** A JSON value or a string. */
  readonly output: unknown;
  readonly isError?: boolean;
}

/** Every kind of content a message can hold, discriminated by `type`. */
export type ContentBlock = TextBlock | ReasoningBlock | ToolCallBlock | ToolResultBlock;
