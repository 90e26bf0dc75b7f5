import type { JSONObject, SharedV3ProviderMetadata, SharedV3ProviderOptions } from '@ai-sdk/provider';
import type { ReasoningBlock, ToolCallBlock } from '@replan/core';

/**
 * The `provider` tag of reasoning from an AI SDK provider namespace (the first part of a language
 * model's `provider`, or a key of its `providerMetadata`): Google's and Vertex's thought signatures
 * are `gemini`, as `@replan/providers` tags them; any other namespace is its own tag.
 */
export function reasoningTagOf(namespace: string): string {
  return namespace === 'google' || namespace === 'vertex' ? 'gemini' : namespace;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Shallow-merges provider metadata per namespace: a stream sends it in pieces (a signature at the end). */
export function mergeMetadata(
  into: SharedV3ProviderMetadata | undefined,
  more: SharedV3ProviderMetadata | undefined,
): SharedV3ProviderMetadata | undefined {
  if (!more || Object.keys(more).length === 0) return into;
  const out: Record<string, JSONObject> = { ...into };
  for (const [namespace, fields] of Object.entries(more)) out[namespace] = { ...out[namespace], ...fields };
  return out;
}

/**
 * A reasoning part as a block: its text, the signature or redacted data the provider put in its
 * metadata (Anthropic `signature` / `redactedData`, Gemini `thoughtSignature`), and the whole
 * metadata under `providerData.providerMetadata`, sent back verbatim as the part's `providerOptions`.
 */
export function reasoningBlockOf(text: string, metadata: SharedV3ProviderMetadata | undefined): ReasoningBlock {
  const namespaces = metadata ? Object.keys(metadata) : [];
  const namespace = namespaces[0];
  if (!metadata || namespace === undefined) return { type: 'reasoning', reasoning: text };
  let signature: string | undefined;
  let data: string | undefined;
  for (const ns of namespaces) {
    const fields = metadata[ns] ?? {};
    if (typeof fields.signature === 'string') signature ??= fields.signature;
    if (typeof fields.thoughtSignature === 'string') signature ??= fields.thoughtSignature;
    if (typeof fields.redactedData === 'string') data ??= fields.redactedData;
  }
  return {
    type: 'reasoning',
    reasoning: text,
    ...(signature !== undefined ? { signature } : {}),
    ...(data !== undefined ? { redacted: true, data } : {}),
    provider: reasoningTagOf(namespace),
    providerData: { providerMetadata: structuredClone(metadata) },
  };
}

/**
 * The `providerOptions` of a reasoning part going back: the metadata it came with when an AI SDK
 * model made it, else the signature or redacted data of a block another model made (Anthropic's
 * through `@replan/providers`, Gemini's thought signatures), in the shape the AI SDK providers read.
 */
export function reasoningOptionsOf(block: ReasoningBlock): SharedV3ProviderOptions | undefined {
  const stored = block.providerData?.providerMetadata;
  if (isObject(stored)) return stored as SharedV3ProviderOptions;
  if (block.provider === 'anthropic') {
    if (block.signature !== undefined) return { anthropic: { signature: block.signature } };
    if (block.redacted && block.data !== undefined) return { anthropic: { redactedData: block.data } };
  }
  if (block.provider === 'gemini' && block.signature !== undefined) return geminiSignature(block.signature);
  return undefined;
}

/** A tool call's thought signature (Gemini, directly or through an OpenAI-compatible endpoint), from any namespace. */
export function toolCallSignatureOf(metadata: SharedV3ProviderMetadata | undefined): string | undefined {
  if (!metadata) return undefined;
  for (const fields of Object.values(metadata)) if (typeof fields?.thoughtSignature === 'string') return fields.thoughtSignature;
  return undefined;
}

/** The `providerOptions` of a signed tool call going back: Google, Vertex and OpenAI-compatible endpoints all read `google` or `vertex`. */
export function toolCallOptionsOf(block: ToolCallBlock): SharedV3ProviderOptions | undefined {
  return block.signature === undefined ? undefined : geminiSignature(block.signature);
}

const geminiSignature = (thoughtSignature: string): SharedV3ProviderOptions => ({
  google: { thoughtSignature },
  vertex: { thoughtSignature },
});
