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
  /**
   * The provider's id, kept byte for byte in the log. A request sends an id outside
   * `[a-zA-Z0-9_-]` (e.g. a compensation's `<callId>:compensate`) as a wire-safe id derived from it.
   */
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
  /**
   * A JSON value or a string — or content blocks (`ToolResultContent[]`: text, images, files) when
   * the tool returned such an array; `toolResultContent(output)` tells them apart.
   */
  readonly output: unknown;
  readonly isError?: boolean;
}

/** Media at a URL (`https:` or `data:`), fetched by whoever reads it (the provider, usually). */
export interface UrlSource {
  readonly url: string;
  readonly data?: never;
  readonly blob?: never;
}

/** Media inline, as standard base64 (what `imageFromBytes` makes). Stores move it into a blob when they save the event. */
export interface DataSource {
  readonly data: string;
  readonly url?: never;
  readonly blob?: never;
}

/**
 * Media kept in the session store's blobs: `blob` is the SHA-256 of the bytes (64 lowercase hex
 * digits), `size` their length in bytes. Stores write this in place of `data`; the bytes are read
 * back (`SessionStore.readBlob`) only when a model call sends them.
 */
export interface BlobSource {
  readonly blob: string;
  readonly size: number;
  readonly url?: never;
  readonly data?: never;
}

/**
 * An image or file built by hand with its bytes (`Uint8Array` or `Buffer`) as `data`: taken wherever
 * blocks come in (a run's input, a tool's output) and turned into base64 `data` there.
 */
export interface MediaBytesBlock {
  readonly type: 'image' | 'file';
  readonly mediaType: string;
  readonly data: Uint8Array;
  readonly detail?: ImageDetail;
  readonly filename?: string;
}

/** A content block as a caller may write it: any `ContentBlock`, or an image or file with bytes. */
export type ContentBlockInput = ContentBlock | MediaBytesBlock;

/** Where a media block's bytes are: exactly one of `url`, `data` or `blob`. */
export type MediaSource = UrlSource | DataSource | BlobSource;

/** How closely a vision model should look at an image (OpenAI's `detail`; other providers ignore it). */
export type ImageDetail = 'auto' | 'low' | 'high';

/** An image, e.g. `{ type: 'image', mediaType: 'image/png', data: '<base64>' }`. Build one with `imageFromBytes`, `imageFromFile` or `imageFromUrl`. */
export type ImageBlock = {
  readonly type: 'image';
  /** The IANA media type, e.g. `image/png`, `image/jpeg`, `image/webp`, `image/gif`. */
  readonly mediaType: string;
  readonly detail?: ImageDetail;
} & MediaSource;

/** A file (a PDF, a text or CSV file, …). Build one with `fileFromBytes`, `fileFromPath` or `fileFromUrl`. */
export type FileBlock = {
  readonly type: 'file';
  /** The IANA media type, e.g. `application/pdf`, `text/csv`. */
  readonly mediaType: string;
  /** The file's name as the model is told it (providers that take files want one). */
  readonly filename?: string;
} & MediaSource;

/** An image or a file block. */
export type MediaBlock = ImageBlock | FileBlock;

/** What a tool may return as content blocks (an array of these is sent to the model as content, not as JSON). */
export type ToolResultContent = TextBlock | ImageBlock | FileBlock;

/** Every kind of content a message can hold, discriminated by `type`. */
export type ContentBlock = TextBlock | ReasoningBlock | ToolCallBlock | ToolResultBlock | ImageBlock | FileBlock;
