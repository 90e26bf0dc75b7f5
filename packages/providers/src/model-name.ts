import { ConfigurationError } from '@replan/core';

/**
 * The `model` option of a provider model, checked at construction: a non-empty string naming the
 * model the server serves. A missing or empty name would otherwise fail only at the first call.
 */
export function modelNameOf(className: string, options: { readonly model?: unknown } | undefined): string {
  const model = options?.model;
  if (typeof model === 'string' && model.trim() !== '') return model;
  throw new ConfigurationError(
    `new ${className}({ model }) needs the model's name as a non-empty string (e.g. { model: 'gpt-4o-mini' }, or the name your server serves, such as 'qwen3:8b'); got ${model === '' ? 'an empty string' : String(model === undefined ? 'undefined' : JSON.stringify(model))}. modelFromEnv() reads it from REPLAN_MODEL.`,
  );
}
