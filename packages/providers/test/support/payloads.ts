/** Chat Completions payload builders, shaped like what servers send. */

let created = 1_700_000_000;

export function chunk(delta: Record<string, unknown>, finish: string | null = null, extra: Record<string, unknown> = {}) {
  return {
    id: 'chatcmpl-test',
    object: 'chat.completion.chunk',
    created: created++,
    model: 'test-model',
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    ...extra,
  };
}

/** The final usage chunk of `stream_options.include_usage`. */
export function usageChunk(usage: Record<string, unknown>) {
  return { id: 'chatcmpl-test', object: 'chat.completion.chunk', created: created++, model: 'test-model', choices: [], usage };
}

export function completion(message: Record<string, unknown>, finish = 'stop', usage?: Record<string, unknown>) {
  return {
    id: 'chatcmpl-test',
    object: 'chat.completion',
    created: created++,
    model: 'test-model',
    choices: [{ index: 0, message: { role: 'assistant', ...message }, logprobs: null, finish_reason: finish }],
    ...(usage ? { usage } : {}),
  };
}

export const USAGE = {
  prompt_tokens: 120,
  completion_tokens: 80,
  total_tokens: 200,
  prompt_tokens_details: { cached_tokens: 64 },
  completion_tokens_details: { reasoning_tokens: 50 },
};
