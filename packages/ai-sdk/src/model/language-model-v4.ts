import type { LanguageModelV3 } from '@ai-sdk/provider';

/**
 * What `aiSdkModel` reads of an AI SDK 7 language model (`LanguageModelV4` of `@ai-sdk/provider@4`:
 * `anthropic('claude-…')` from `@ai-sdk/anthropic@4`, …). Declared here rather than imported so that
 * this package's types need only the `@ai-sdk/provider` an app has installed, 3 or 4; a real
 * `LanguageModelV4` is one of these (the package's type tests check it).
 */
export interface AiSdkLanguageModelV4 {
  readonly specificationVersion: 'v4';
  readonly provider: string;
  readonly modelId: string;
  doGenerate(options: LanguageModelV4CallOptionsLike): PromiseLike<LanguageModelV4GenerateResultLike>;
  doStream(options: LanguageModelV4CallOptionsLike): PromiseLike<{ readonly stream: ReadableStream<{ readonly type: string }> }>;
}

/** Any AI SDK language model `aiSdkModel` takes: specification `v3` (ai@6) or `v4` (ai@7). */
export type AiSdkLanguageModel = LanguageModelV3 | AiSdkLanguageModelV4;

/** The call options of a v4 model, as far as replan needs to name them (it builds them itself). */
export type LanguageModelV4CallOptionsLike = { readonly prompt: readonly unknown[]; readonly [option: string]: unknown };

/** What replan reads of a v4 `doGenerate` result (parts are checked at run time). */
export interface LanguageModelV4GenerateResultLike {
  readonly content: readonly { readonly type: string }[];
  readonly finishReason: { readonly unified: string; readonly raw: string | undefined };
  readonly usage: {
    readonly inputTokens: {
      readonly total: number | undefined;
      readonly noCache: number | undefined;
      readonly cacheRead: number | undefined;
      readonly cacheWrite: number | undefined;
    };
    readonly outputTokens: {
      readonly total: number | undefined;
      readonly text: number | undefined;
      readonly reasoning: number | undefined;
    };
  };
  readonly warnings?: readonly { readonly type: string }[];
}
