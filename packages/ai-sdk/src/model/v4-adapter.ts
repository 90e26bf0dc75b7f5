import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3Content,
  LanguageModelV3FinishReason,
  LanguageModelV3GenerateResult,
  LanguageModelV3StreamPart,
  LanguageModelV3ToolResultOutput,
} from '@ai-sdk/provider';
import type { AiSdkLanguageModelV4, LanguageModelV4CallOptionsLike } from './language-model-v4.js';

type ContentItem = Extract<LanguageModelV3ToolResultOutput, { type: 'content' }>['value'][number];
type Part = { readonly type: string; readonly [field: string]: unknown };

/**
 * A v4 language model (AI SDK 7) seen as a v3 one, so one mapping serves both. What changed
 * between the specifications and touches replan: file data is tagged (`{ type: 'data' | 'url' }`)
 * in prompts, tool-result content and generated files; tool-result images are `file` items; a
 * `ping` part keeps a stream alive; a finish may be `interrupted`; `reasoning` is a call option
 * (`callOptionsOf` sets it). Parts v4 added that replan has no block for (`reasoning-file`,
 * `custom`) pass through and are ignored with a warning, as any unknown part.
 */
export function asV3(model: AiSdkLanguageModelV4): LanguageModelV3 {
  return {
    specificationVersion: 'v3',
    provider: model.provider,
    modelId: model.modelId,
    supportedUrls: {},
    doGenerate: async (options) => {
      const result = await model.doGenerate(v4CallOptionsOf(options));
      // The v4 result is read through the v3 shapes; the parts that differ are converted here.
      const v3 = result as unknown as LanguageModelV3GenerateResult;
      return {
        ...v3,
        content: result.content.map((part) => v3PartOf(part as Part) as LanguageModelV3Content),
        finishReason: v3FinishOf(result.finishReason),
        warnings: v3.warnings ?? [],
      };
    },
    doStream: async (options) => {
      const result = await model.doStream(v4CallOptionsOf(options));
      const stream = result.stream.pipeThrough(
        new TransformStream<{ readonly type: string }, LanguageModelV3StreamPart>({
          transform(part, out) {
            if (part.type === 'ping') return;
            out.enqueue(v3PartOf(part as Part) as LanguageModelV3StreamPart);
          },
        }),
      );
      return { ...result, stream };
    },
  };
}

/** Call options built for v3, with file data tagged as v4 wants it. */
function v4CallOptionsOf(options: LanguageModelV3CallOptions): LanguageModelV4CallOptionsLike {
  return {
    ...options,
    prompt: options.prompt.map((message) => {
      if (message.role === 'system') return message;
      return {
        ...message,
        content: message.content.map((part) => {
          if (part.type === 'file') return { ...part, data: fileDataOf(part.data) };
          if (part.type === 'tool-result' && part.output.type === 'content')
            return { ...part, output: { ...part.output, value: part.output.value.map(v4ContentItemOf) } };
          return part;
        }),
      };
    }),
  };
}

function fileDataOf(data: string | Uint8Array | URL) {
  return data instanceof URL ? { type: 'url' as const, url: data } : { type: 'data' as const, data };
}

/** A v3 tool-result content item as v4's: images are files; data and URLs are tagged. */
function v4ContentItemOf(item: ContentItem): unknown {
  switch (item.type) {
    case 'image-data':
    case 'file-data':
      return {
        type: 'file',
        mediaType: item.mediaType,
        data: { type: 'data', data: item.data },
        ...('filename' in item && item.filename !== undefined ? { filename: item.filename } : {}),
      };
    case 'image-url':
      // `image/*`: AI SDK's own media type for an image whose exact type the URL does not say.
      return { type: 'file', mediaType: 'image/*', data: { type: 'url', url: new URL(item.url) } };
    case 'file-url':
      return { type: 'file', mediaType: item.mediaType ?? 'application/octet-stream', data: { type: 'url', url: new URL(item.url) } };
    default:
      return item;
  }
}

/** A v4 content or stream part as v3's: a generated file's tagged data untagged (a URL stays a URL); a finish's reason mapped. */
function v3PartOf(part: Part): Part {
  if (part.type === 'file') {
    const data = part.data as { type?: string; data?: unknown; url?: unknown } | undefined;
    if (data?.type === 'data') return { ...part, data: data.data };
    if (data?.type === 'url') return { ...part, data: data.url };
    return part;
  }
  if (part.type === 'finish')
    return { ...part, finishReason: v3FinishOf(part.finishReason as { unified: string; raw: string | undefined }) };
  return part;
}

/** v4's `interrupted` (the stream ended without its finish) is v3's `other`, as a v3 stream that just ended. */
function v3FinishOf(reason: { readonly unified: string; readonly raw: string | undefined }): LanguageModelV3FinishReason {
  const unified = reason.unified === 'interrupted' ? 'other' : (reason.unified as LanguageModelV3FinishReason['unified']);
  return { unified, raw: reason.raw ?? (reason.unified === 'interrupted' ? 'interrupted' : undefined) };
}
