import { ReplanError } from '@replan/core';

/** Core's: `aiSdkModel` refuses the same way (one class to catch, whichever model refused). */
export { UnsupportedMediaError } from '@replan/core';

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
