import { COMMON_IMAGE_TYPES } from '@replan/core';
import type { ProviderProfileName } from '../profiles/provider-profile.js';
import { isGoogleEndpoint } from '../profiles/provider-profile.js';

/**
 * What a server takes as images and files on the Chat Completions wire:
 * - `openai`: api.openai.com — PNG, JPEG, WebP, GIF images (URL or inline); PDF files inline (`file_data`).
 * - `gemini`: Google's OpenAI-compatible endpoint — PNG, JPEG, WebP, HEIC, HEIF images, inline only; PDF files inline.
 * - `ollama`: Ollama's `/v1` — PNG and JPEG images (URL or inline); no files.
 * - `litellm`: a LiteLLM proxy — PNG, JPEG, WebP, GIF images (what the models behind it share) and any file, inline or
 *   by URL (a file URL goes as `file_id`); the model behind it decides on files.
 * - `openrouter`: OpenRouter — PNG, JPEG, WebP, GIF images (URL or inline); PDF files inline or by URL (`file_data`).
 * - `generic`: any other OpenAI-compatible server (vLLM, LM Studio, …) — OpenAI's shapes and image types (PNG, JPEG,
 *   WebP, GIF); every file type passed on.
 * A server that takes other image types is told with `OpenAIChatModel`'s `imageTypes` (they replace the profile's).
 * Everywhere, a text file given inline (`text/*`, JSON, XML, YAML) is sent as text.
 */
export type MediaProfileName = 'openai' | 'gemini' | 'ollama' | 'litellm' | 'openrouter' | 'generic';

export const MEDIA_PROFILES: readonly MediaProfileName[] = ['openai', 'gemini', 'ollama', 'litellm', 'openrouter', 'generic'];

/** How one server takes media. */
export interface MediaProfile {
  readonly name: MediaProfileName;
  /** How errors name the server. */
  readonly label: string;
  /** Image media types taken; `undefined`: any `image/*`. */
  readonly images: ReadonlySet<string> | undefined;
  /** Whether an image may be given by `http(s)` URL (else only its bytes). */
  readonly imageUrls: boolean;
  /** File media types taken as `file` parts; `undefined`: any. Empty: none. */
  readonly files: ReadonlySet<string> | undefined;
  /** How a file given by URL is sent: in `file_data`, as LiteLLM's `file_id`, or not at all. */
  readonly fileUrls: 'file_data' | 'file_id' | 'none';
  /** Whether the image `detail` field is sent. */
  readonly detail: boolean;
}

const OPENAI_IMAGES: ReadonlySet<string> = new Set(COMMON_IMAGE_TYPES);
const PDF = new Set(['application/pdf']);

const PROFILES: Readonly<Record<MediaProfileName, MediaProfile>> = {
  openai: { name: 'openai', label: 'OpenAI', images: OPENAI_IMAGES, imageUrls: true, files: PDF, fileUrls: 'none', detail: true },
  gemini: {
    name: 'gemini',
    label: "Gemini's OpenAI-compatible endpoint",
    images: new Set(['image/png', 'image/jpeg', 'image/webp', 'image/heic', 'image/heif']),
    imageUrls: false,
    files: PDF,
    fileUrls: 'none',
    // Google's endpoint refuses fields it does not know.
    detail: false,
  },
  ollama: {
    name: 'ollama',
    label: 'Ollama',
    images: new Set(['image/png', 'image/jpeg']),
    imageUrls: true,
    files: new Set(),
    fileUrls: 'none',
    detail: false,
  },
  litellm: {
    name: 'litellm',
    label: 'LiteLLM',
    images: OPENAI_IMAGES,
    imageUrls: true,
    files: undefined,
    fileUrls: 'file_id',
    detail: true,
  },
  openrouter: {
    name: 'openrouter',
    label: 'OpenRouter',
    images: OPENAI_IMAGES,
    imageUrls: true,
    files: PDF,
    fileUrls: 'file_data',
    detail: true,
  },
  generic: {
    name: 'generic',
    label: 'an OpenAI-compatible server',
    images: OPENAI_IMAGES,
    imageUrls: true,
    files: undefined,
    fileUrls: 'file_data',
    detail: true,
  },
};

export const mediaProfile = (name: MediaProfileName): MediaProfile => PROFILES[name];

/** The profile of OpenAI's Responses API: OpenAI's types, and files by URL too (`file_url`). */
export const RESPONSES_MEDIA: MediaProfile = { ...PROFILES.openai, label: 'the OpenAI Responses API', fileUrls: 'file_data' };

function urlOf(baseURL: string | undefined): URL | undefined {
  if (!baseURL) return undefined;
  try {
    return new URL(baseURL);
  } catch {
    return undefined;
  }
}

/**
 * The media profile of a server: from its host (OpenRouter, Google, OpenAI), Ollama's and
 * LiteLLM's default ports (11434, 4000) or names in the host, then the reasoning profile (a Claude
 * or Gemini model behind a proxy is served by LiteLLM); else `generic`.
 */
export function detectMediaProfile(baseURL: string | undefined, profile: ProviderProfileName): MediaProfileName {
  const url = urlOf(baseURL);
  if (!url) return baseURL ? 'generic' : 'openai';
  const host = url.hostname.toLowerCase();
  if (host === 'openrouter.ai' || host.endsWith('.openrouter.ai')) return 'openrouter';
  if (isGoogleEndpoint(baseURL)) return 'gemini';
  if (host === 'api.openai.com') return 'openai';
  if (profile === 'openrouter') return 'openrouter';
  if (url.port === '11434' || host.includes('ollama')) return 'ollama';
  if (url.port === '4000' || host.includes('litellm') || profile === 'anthropic' || profile === 'gemini') return 'litellm';
  return 'generic';
}
