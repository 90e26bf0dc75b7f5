import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tripMemoryDemo } from './trip-memory.js';

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('examples/memory', () => {
  it('session 2 recalls the fact session 1 kept; session 3 reuses its plan without a planner call', async () => {
    dir = await mkdtemp(join(tmpdir(), 'replan-memory-example-test-'));
    const { first, second, third } = await tripMemoryDemo(dir);
    expect(first).toEqual({ output: 'Take IC 521 at 08:39; lunch at Da Terra.', facts: ['Ana eats vegetarian food only'], plans: 1 });
    expect(second).toEqual({
      output: 'Da Terra: a vegetarian buffet on Rua Mouzinho da Silveira.',
      recalled: ['Ana eats vegetarian food only'],
    });
    expect(third.plannerCalls).toBe(0);
    expect(third.reusedFrom).toMatch(/\S/);
    expect(third.output).toBe(first.output);
  });
});
