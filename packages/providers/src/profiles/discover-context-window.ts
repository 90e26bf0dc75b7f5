import { detectMediaProfile } from '../media/media-profile.js';
import { detectProfile } from './provider-profile.js';

/** The servers whose model metadata reports a context window. */
export type ContextWindowServer = 'litellm' | 'openrouter';

export interface DiscoverContextWindowOptions {
  /** The OpenAI-compatible base URL the model is called at (e.g. `http://localhost:4000/v1`). */
  readonly baseURL: string;
  /** The model name as sent in requests. */
  readonly model: string;
  /** Sent as `Authorization: Bearer …` (LiteLLM's `/model/info` needs a key when the proxy has one). */
  readonly apiKey?: string;
  /**
   * Which server's metadata to read. Detected from `baseURL` and `model` like the media profile
   * (OpenRouter's host; LiteLLM's port 4000, a host naming it, or a Claude/Gemini model behind a
   * proxy); for any other server both shapes are tried.
   */
  readonly server?: ContextWindowServer;
  readonly headers?: Record<string, string>;
  readonly fetch?: (input: string | URL | Request, init?: RequestInit) => Promise<Response>;
  /** Aborting it rejects with its reason; every other failure is `undefined`. */
  readonly signal?: AbortSignal;
  /** Longest wait per request, ms (default 10 000). */
  readonly timeoutMs?: number;
}

/** Longest wait for one metadata request, ms: discovery must never hold up model creation for long. */
const DEFAULT_TIMEOUT_MS = 10_000;

/**
 * The model's context window (input tokens) as its server reports it: LiteLLM's
 * `GET {baseURL}/model/info` (`model_info.max_input_tokens` of the entries named `model`) or
 * OpenRouter's `GET {baseURL}/models` (`context_length` of the entry with id `model`).
 * `undefined` when the server reports nothing, does not answer, answers with an error or with a
 * body of another shape: a window is never guessed, and a failed lookup never fails the caller.
 */
export async function discoverContextWindow(options: DiscoverContextWindowOptions): Promise<number | undefined> {
  for (const server of serversToAsk(options)) {
    const window = server === 'litellm' ? await askLiteLLM(options) : await askOpenRouter(options);
    if (window !== undefined) return window;
  }
  return undefined;
}

/** Whether `discoverContextWindow` would ask this server anything without an explicit `server`. */
export function reportsContextWindow(baseURL: string | undefined, model: string): ContextWindowServer | undefined {
  const media = detectMediaProfile(baseURL, detectProfile(baseURL, model));
  return media === 'litellm' || media === 'openrouter' ? media : undefined;
}

function serversToAsk(options: DiscoverContextWindowOptions): readonly ContextWindowServer[] {
  if (options.server) return [options.server];
  const detected = reportsContextWindow(options.baseURL, options.model);
  return detected ? [detected] : ['litellm', 'openrouter'];
}

async function askLiteLLM(options: DiscoverContextWindowOptions): Promise<number | undefined> {
  const body = await getJson(options, '/model/info');
  const entries = dataOf(body).filter((entry) => entry.model_name === options.model);
  // One name may route to several deployments; a request must fit the smallest of them.
  const windows = entries.map((entry) => positiveTokens(recordOf(entry.model_info)?.max_input_tokens));
  const reported = windows.filter((w): w is number => w !== undefined);
  return reported.length ? Math.min(...reported) : undefined;
}

async function askOpenRouter(options: DiscoverContextWindowOptions): Promise<number | undefined> {
  const body = await getJson(options, '/models');
  const entry = dataOf(body).find((e) => e.id === options.model);
  if (!entry) return undefined;
  return positiveTokens(entry.context_length) ?? positiveTokens(recordOf(entry.top_provider)?.context_length);
}

/** The parsed JSON body of a successful GET, or `undefined` for any failure except the caller's abort. */
async function getJson(options: DiscoverContextWindowOptions, path: string): Promise<unknown> {
  const controller = new AbortController();
  const onAbort = () => controller.abort(options.signal?.reason);
  options.signal?.addEventListener('abort', onAbort, { once: true });
  if (options.signal?.aborted) onAbort();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  try {
    const response = await (options.fetch ?? fetch)(`${options.baseURL.replace(/\/+$/, '')}${path}`, {
      headers: {
        accept: 'application/json',
        ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}),
        ...options.headers,
      },
      signal: controller.signal,
    });
    if (!response.ok) return undefined;
    return await response.json();
  } catch (error) {
    if (options.signal?.aborted) throw options.signal.reason ?? error;
    return undefined;
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
  }
}

function recordOf(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

function dataOf(body: unknown): Record<string, unknown>[] {
  const data = recordOf(body)?.data;
  return Array.isArray(data) ? data.map(recordOf).filter((e): e is Record<string, unknown> => e !== undefined) : [];
}

function positiveTokens(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 1 ? Math.floor(value) : undefined;
}
