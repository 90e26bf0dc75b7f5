import type { ModelResponse } from '@replan/core';
import type { Json } from './reasoning/json.js';
import { restoreOptionalText } from './schema/restore-optional.js';

/**
 * A strict structured answer with the `null`s strict mode forced on optional properties removed
 * again (see `restoreOptionalText`), so it validates against the caller's original schema.
 */
export function withStructuredText(response: ModelResponse, originalSchema: Json | undefined): ModelResponse {
  if (!originalSchema) return response;
  let changed = false;
  const content = response.message.content.map((block) => {
    if (block.type !== 'text') return block;
    const text = restoreOptionalText(block.text, originalSchema);
    if (text === block.text) return block;
    changed = true;
    return { ...block, text };
  });
  return changed ? { ...response, message: { ...response.message, content } } : response;
}
