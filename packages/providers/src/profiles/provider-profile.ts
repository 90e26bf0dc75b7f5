/**
 * How a server wants reasoning sent back and settings named:
 * - `openai`: api.openai.com — no reasoning fields in requests; `max_completion_tokens`.
 * - `anthropic`: Claude behind an OpenAI-compatible proxy (LiteLLM) — `thinking_blocks` with signatures go back.
 * - `gemini`: Gemini (Google's endpoint or a proxy) — thought signatures go back on the tool calls.
 * - `deepseek`: DeepSeek thinking mode — `reasoning_content` goes back on assistant messages with tool calls.
 * - `openrouter`: `reasoning_details` go back unchanged and in order.
 * - `plain`: any other server (vLLM, Ollama, LM Studio, ...) — no reasoning fields are sent back.
 */
export type ProviderProfileName = 'openai' | 'anthropic' | 'gemini' | 'deepseek' | 'openrouter' | 'plain';

export const PROVIDER_PROFILES: readonly ProviderProfileName[] = ['openai', 'anthropic', 'gemini', 'deepseek', 'openrouter', 'plain'];

function hostOf(baseURL: string | undefined): string {
  if (!baseURL) return '';
  try {
    return new URL(baseURL).hostname.toLowerCase();
  } catch {
    return '';
  }
}

/** True for Google's own OpenAI-compatible endpoints (which reject fields they do not know). */
export function isGoogleEndpoint(baseURL: string | undefined): boolean {
  const host = hostOf(baseURL);
  return host === 'generativelanguage.googleapis.com' || host.endsWith('aiplatform.googleapis.com');
}

/**
 * Picks the profile from the base URL first (OpenRouter, DeepSeek, Google, OpenAI), then from
 * the model name (a Claude, Gemini or DeepSeek model behind a proxy such as LiteLLM).
 */
export function detectProfile(baseURL: string | undefined, model: string): ProviderProfileName {
  const host = hostOf(baseURL);
  if (host === 'openrouter.ai' || host.endsWith('.openrouter.ai')) return 'openrouter';
  if (host === 'api.deepseek.com' || host.endsWith('.deepseek.com')) return 'deepseek';
  if (isGoogleEndpoint(baseURL)) return 'gemini';
  if (host === 'api.openai.com') return 'openai';
  const name = model.toLowerCase();
  if (/claude|anthropic/.test(name)) return 'anthropic';
  if (/gemini/.test(name)) return 'gemini';
  if (/deepseek/.test(name)) return 'deepseek';
  return baseURL ? 'plain' : 'openai';
}

/**
 * The `provider` tags of the reasoning blocks a profile sends back (signatures, encrypted or
 * redacted thinking, Gemini tool-call signatures): only its own shape's. `deepseek` sends back
 * plain reasoning text only, `openai` and `plain` nothing.
 */
export function reasoningProvidersOf(profile: ProviderProfileName): readonly string[] {
  switch (profile) {
    case 'anthropic':
    case 'gemini':
    case 'openrouter':
      return [profile];
    default:
      return [];
  }
}
