import { describe, expect, it } from 'vitest';
import { NEEDLE, SOURCES, WINDOW, bigResult, fact, longStep } from './long-step.js';

describe('examples/long-step', () => {
  it('one step reads 60 sources under a 24k window: it compacts, every request fits, the answer keeps every fact', async () => {
    const step = await longStep();
    expect(step.status).toBe('completed');
    expect(step.uncompactedEstimate).toBeGreaterThan(3 * WINDOW);
    expect(step.compactions).toBeGreaterThan(1);
    expect(step.summarizerCalls).toBe(step.compactions);
    expect(step.largestRequest).toBeLessThanOrEqual(WINDOW);
    expect(step.factsInAnswer).toBe(SOURCES);
    for (let n = 1; n <= SOURCES; n++) expect(step.answer).toContain(fact(n));
  });

  it('a 400 KB result is shown as a preview and its needle found with search_tool_result', async () => {
    const offload = await bigResult();
    expect(offload.resultChars).toBeGreaterThan(400_000);
    expect(offload.shownChars).toBeLessThan(5_000);
    expect(offload.searchHits).toBe(1);
    expect(offload.answer).toBe(`Found it: ${NEEDLE}`);
  });
});
