import { ConfigurationError } from '@replan/core';
import OpenAI from 'openai';
import { capturingFetch } from './errors/capturing-fetch.js';

type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** How to reach an OpenAI-compatible server. */
export interface ClientOptions {
  /** Defaults to `OPENAI_API_KEY`; a placeholder is used for a `baseURL` that needs none (Ollama, vLLM). */
  readonly apiKey?: string;
  /** Defaults to `OPENAI_BASE_URL`, else OpenAI. */
  readonly baseURL?: string;
  /** SDK retries for connection errors, 408/409/429/5xx (default 2). Quota and too-large 429s are never retried. */
  readonly maxRetries?: number;
  /** SDK timeout until response headers arrive, ms (default 10 minutes). */
  readonly timeout?: number;
  readonly headers?: Record<string, string>;
  /** A custom `fetch` (proxies, tests). It is wrapped to keep error bodies. */
  readonly fetch?: Fetch;
}

/** The base URL in use: the option, else `OPENAI_BASE_URL`. */
export const baseURLOf = (options: ClientOptions): string | undefined => options.baseURL ?? (process.env.OPENAI_BASE_URL || undefined);

/** An `openai` client whose `fetch` keeps error bodies and marks non-retryable 429s. */
export function createOpenAIClient(options: ClientOptions): OpenAI {
  const baseURL = baseURLOf(options);
  const apiKey = options.apiKey ?? (process.env.OPENAI_API_KEY || (baseURL ? 'not-needed' : undefined));
  if (!apiKey)
    throw new ConfigurationError(
      'No API key: pass apiKey, set OPENAI_API_KEY, or set baseURL / OPENAI_BASE_URL for a server that needs none (Ollama, vLLM).',
    );
  return new OpenAI({
    apiKey,
    ...(baseURL ? { baseURL } : {}),
    ...(options.maxRetries !== undefined ? { maxRetries: options.maxRetries } : {}),
    ...(options.timeout !== undefined ? { timeout: options.timeout } : {}),
    ...(options.headers ? { defaultHeaders: options.headers } : {}),
    fetch: capturingFetch(options.fetch ?? globalThis.fetch),
  });
}
