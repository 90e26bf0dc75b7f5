/**
 * The plain reasoning text of one message or delta: `reasoning_content` (DeepSeek, LiteLLM, older
 * vLLM) and `reasoning` (vLLM, Ollama `/v1`, OpenRouter, LM Studio). A server that fills both with
 * the same text is counted once; two different texts are both kept (never drop reasoning).
 */
export function plainReasoningOf(delta: { readonly reasoning_content?: unknown; readonly reasoning?: unknown }): string {
  const a = typeof delta.reasoning_content === 'string' ? delta.reasoning_content : '';
  const b = typeof delta.reasoning === 'string' ? delta.reasoning : '';
  if (!a) return b;
  if (!b || a === b) return a;
  return a + b;
}
