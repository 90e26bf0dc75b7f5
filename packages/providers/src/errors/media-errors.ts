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

/**
 * An image or file that names a stored blob (`{ blob, size }`) reached the provider without its
 * bytes. A model call made by an agent reads them from the session's store just before sending;
 * calling a model directly, give the block its bytes (`data`) or a `url` instead.
 */
export class UnresolvedBlobError extends ReplanError {
  constructor(
    readonly blob: string,
    readonly model?: string,
  ) {
    super(
      `${model ? `model "${model}"` : 'the model'} was given an image or file that names blob "${blob}" without its bytes: ` +
        "blobs are read from the session store by an agent's model call; when you call a model yourself, pass the bytes as data (imageFromBytes / fileFromBytes) or a url.",
    );
  }
}
