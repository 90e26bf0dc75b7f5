import { button, h } from './dom.js';
import type { MediaView } from './wire-types.js';

/** Fetches a blob's bytes for the page (with the token; an `<img src>` could not send it). */
export type BlobLoader = (id: string) => Promise<Blob>;

const sizeText = (bytes: number): string =>
  bytes < 1024 ? `${bytes} B` : bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** `image · image/png · 12.3 KB`, or with the file's name. */
export const mediaCaption = (media: MediaView): string =>
  [media.filename ?? media.kind, media.mediaType, media.size !== undefined ? sizeText(media.size) : undefined].filter(Boolean).join(' · ');

/**
 * Saves a blob as a file. The object URL is typed `application/octet-stream` whatever the blob
 * says, so even an SVG or HTML file is only ever saved: opened from this page's origin it would
 * run with the studio's token within reach.
 */
async function download(load: BlobLoader, media: MediaView & { blob: string }): Promise<void> {
  const bytes = await load(media.blob);
  const url = URL.createObjectURL(new Blob([bytes], { type: 'application/octet-stream' }));
  const link = h('a', { attrs: { href: url, download: media.filename ?? `${media.kind}-${media.blob.slice(0, 12)}` } });
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** An image shown from its bytes (raster types only), or a file to save; a URL or inline data is named, not fetched. */
export function mediaElement(media: MediaView, load: BlobLoader): HTMLElement {
  const caption = h('figcaption', null, mediaCaption(media));
  const { blob } = media;
  if (blob === undefined)
    return h(
      'figure',
      { class: 'block block-media' },
      caption,
      h('p', { class: 'muted' }, media.url !== undefined ? `at ${media.url}` : 'inline data, not kept as a blob'),
    );
  if (!media.shown)
    return h(
      'figure',
      { class: 'block block-media' },
      caption,
      button('Download', () => void download(load, { ...media, blob }).catch(() => undefined), {
        label: `Download ${media.filename ?? media.kind} (${media.mediaType})`,
      }),
    );
  const image = h('img', { class: 'media-image', attrs: { alt: mediaCaption(media) } });
  load(blob)
    .then((bytes) => {
      const url = URL.createObjectURL(bytes);
      image.addEventListener('load', () => URL.revokeObjectURL(url), { once: true });
      image.src = url;
    })
    .catch((error: unknown) => caption.append(` — not loaded: ${(error as Error).message}`));
  return h('figure', { class: 'block block-media' }, image, caption);
}
