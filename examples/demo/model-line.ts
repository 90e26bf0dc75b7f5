/**
 * The demo's first line: which model answers, and — when it is the offline script — that it is
 * one, and how to run the same demo on a real model (what `modelFromEnv()` reads).
 */
export function modelLine(model: { readonly id: string }, live: boolean): string {
  if (live) return `model: ${model.id}`;
  return [
    `model: ${model.id} (offline: a scripted model plays every role; no model is asked)`,
    '  for a real one: OPENAI_API_KEY=… pnpm demo',
    '  (or OPENAI_BASE_URL=… REPLAN_MODEL=<model> pnpm demo for any OpenAI-compatible server)',
  ].join('\n');
}
