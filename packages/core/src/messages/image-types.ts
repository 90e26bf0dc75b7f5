import { ConfigurationError } from '../errors/replan-error.js';
import type { MediaBlock } from './content-block.js';

/**
 * The image types OpenAI's models take, and most others share: PNG, JPEG, WebP and GIF. The
 * default of a model adapter that cannot ask its provider (`aiSdkModel`, `OpenAIChatModel` on a
 * generic or LiteLLM server); anything else (SVG, which may carry a script; HEIC; TIFF) is refused
 * before the request unless the model is told it takes it.
 */
export const COMMON_IMAGE_TYPES: readonly string[] = Object.freeze(['image/png', 'image/jpeg', 'image/webp', 'image/gif']);

/** A media type as compared: lower case, no parameters, and `image/jpg` (how some write it) as `image/jpeg`. */
export function normalMediaType(mediaType: string): string {
  const type = mediaType.toLowerCase().split(';')[0]?.trim() ?? '';
  return type === 'image/jpg' ? 'image/jpeg' : type;
}

/**
 * Why a model that takes the image types `accepted` (`undefined`: any `image/*`) cannot take an
 * image block of `mediaType`, or `undefined` when it can. The one check every model adapter makes
 * before it sends an image; the reason says what to do, for `UnsupportedMediaError`. `option`
 * names the model's option that lists the types it takes, when it has one (`imageTypes`).
 */
export function imageTypeRefusal(mediaType: string, accepted: ReadonlySet<string> | undefined, option?: string): string | undefined {
  const type = normalMediaType(mediaType);
  if (!type.startsWith('image/')) return 'an image block needs an image/* media type; send other content as a file block';
  if (!accepted || accepted.has(type)) return undefined;
  const widen = option ? ` (or, if the model does take ${type}, add it to the model's ${option} option)` : '';
  return `it takes ${[...accepted].join(', ')} images; convert the image (to PNG, say) before sending it${widen}`;
}

/**
 * The image types a model option lists, as `imageTypeRefusal` compares them. An entry that is not
 * an `image/*` type is a `ConfigurationError` naming `who` (the model).
 */
export function imageTypeSet(types: readonly string[], who: string): ReadonlySet<string> {
  if (!Array.isArray(types))
    throw new ConfigurationError(`${who}: imageTypes must be an array of image media types, e.g. ['image/png', 'image/jpeg'].`);
  for (const type of types)
    if (typeof type !== 'string' || !normalMediaType(type).startsWith('image/'))
      throw new ConfigurationError(`${who}: imageTypes lists ${JSON.stringify(type)}, which is not an image/* media type.`);
  return new Set(types.map(normalMediaType));
}

/**
 * The text a model reads instead of an image or file a tool returned that it cannot take: the
 * request still goes (a tool's output must not fail the whole call), and the model learns why.
 */
export function unsentToolMediaText(block: MediaBlock, why: Error): string {
  return `[${block.type} ${block.mediaType} returned by the tool was not sent: ${why.message}]`;
}
