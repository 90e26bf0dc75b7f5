import { ReplanError } from '@replan/core';

/**
 * An image or file the model's server does not take (its media type, or the way it is given: a
 * URL where the server wants the bytes). Thrown before the request is sent: nothing reached the
 * server. Names the media type and the provider, and what the provider takes instead.
 */
export class UnsupportedMediaError extends ReplanError {
  constructor(
    /** The block's media type, e.g. `image/svg+xml`. */
    readonly mediaType: string,
    /** Who refuses it, e.g. `Ollama`, `OpenAI chat completions`. */
    readonly provider: string,
    /** Why, and what to do instead. */
    readonly reason: string,
    /** The model the request was for. */
    readonly model?: string,
  ) {
    super(`${model ? `model "${model}" (${provider})` : provider} does not take ${mediaType}: ${reason}`);
  }
}
