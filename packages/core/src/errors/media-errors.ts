import { InvalidArgumentError, ReplanError } from './replan-error.js';

/**
 * An image or file block is malformed: `data` that is not standard base64, no media type, not
 * exactly one of `url` / `data` / `blob`, a bad blob id. Thrown where the block enters replan (the
 * helpers, a run's input, a tool's returned blocks, a store's append), before anything is stored.
 */
export class InvalidMediaError extends InvalidArgumentError {
  constructor(
    /** Which block, e.g. `the run's input, block 2` or `tool "shot" output, block 1`. */
    readonly where: string,
    /** What is wrong with it. */
    readonly problem: string,
  ) {
    super(`Invalid media block (${where}): ${problem}`);
  }
}

/**
 * An image or file the model's server does not take (its media type, or the way it is given: a
 * URL where the server wants the bytes). Thrown by a model before the request is sent: nothing
 * reached the server. Names the media type and the provider, and what the provider takes instead.
 * (An image or file a tool returned is not refused: the model reads a text saying why instead.)
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
