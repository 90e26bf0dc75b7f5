import { describe, expect, it } from 'vitest';
import { modelLine } from './model-line.js';

describe('the demo’s first line', () => {
  it('says the scripted model is offline and how to use a real one', () => {
    const line = modelLine({ id: 'scripted-demo' }, false);
    expect(line.split('\n')[0]).toBe('model: scripted-demo (offline: a scripted model plays every role; no model is asked)');
    expect(line).toContain('OPENAI_API_KEY=… pnpm demo');
    expect(line).toContain('REPLAN_MODEL=<model>');
  });

  it('names a real model and nothing more', () => {
    expect(modelLine({ id: 'gpt-4.1-mini' }, true)).toBe('model: gpt-4.1-mini');
  });
});
