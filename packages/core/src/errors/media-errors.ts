import { InvalidArgumentError } from './replan-error.js';

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
