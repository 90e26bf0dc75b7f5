import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { FileSessionStore, InMemorySessionStore, ReActAgent, Runner, type SessionStore, tool, toolResultsOf } from '@replan/core';
import { ScriptedModel, callTools } from '@replan/core/testing';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
const stores: [string, () => SessionStore][] = [
  ['in-memory', () => new InMemorySessionStore()],
  [
    'file',
    () => {
      const dir = mkdtempSync(join(tmpdir(), 'replan-tool-output-'));
      dirs.push(dir);
      return new FileSessionStore({ dir });
    },
  ],
];

class Money {
  constructor(
    readonly amount: number,
    readonly currency: string,
  ) {}
}

/** Runs one call of a tool returning `value`; returns what the model was shown and what the store kept. */
async function outputOf(value: () => unknown, store: SessionStore) {
  const returning = tool({ name: 'get', description: 'returns a value', parameters: z.object({}), execute: value });
  const model = new ScriptedModel({ responses: [callTools({ name: 'get', args: {} }), 'done'] });
  const runner = new Runner({ agent: new ReActAgent({ name: 'a', model, tools: [returning] }), appName: 'x', sessionStore: store });
  const result = await runner.run({ userId: 'u', sessionId: 's', input: 'go' }).result();
  const shown = toolResultsOf(model.requests[1]?.messages.at(-1))[0];
  const session = await store.get({ appName: 'x', userId: 'u', id: 's' });
  const stored = session?.events.flatMap((e) => toolResultsOf(e.message))[0];
  return { result, shown, stored };
}

describe('tool outputs are JSON, the same on every store', () => {
  for (const [name, makeStore] of stores)
    describe(name, () => {
      it('shows the model what is stored: JSON forms of dates, instances, NaN and maps', async () => {
        const { result, shown, stored } = await outputOf(
          () => ({ at: new Date(0), price: new Money(3, 'EUR'), ratio: Number.NaN, index: new Map([[1, 2]]), gone: undefined }),
          makeStore(),
        );
        expect(result.status).toBe('completed');
        const json = { at: '1970-01-01T00:00:00.000Z', price: { amount: 3, currency: 'EUR' }, ratio: null, index: {} };
        expect(shown?.output).toEqual(json);
        expect(stored?.output).toEqual(json);
        expect(shown?.isError).toBeUndefined();
      });

      for (const [what, value, problem] of [
        ['a BigInt', () => ({ id: 10n }), /BigInt/],
        [
          'a cycle',
          () => {
            const node: Record<string, unknown> = {};
            node.self = node;
            return node;
          },
          /circular/,
        ],
        ['a function', () => () => 1, /function has no JSON form/],
      ] as const)
        it(`a tool returning ${what} gives the model an error result; the run goes on and completes`, async () => {
          const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
          try {
            const { result, shown, stored } = await outputOf(value, makeStore());
            expect(result.status).toBe('completed');
            expect(shown).toMatchObject({ isError: true, output: expect.stringMatching(problem) });
            expect(stored).toEqual(shown);
            expect(warn).toHaveBeenCalledTimes(1);
            expect(String(warn.mock.calls[0]?.[0])).toMatch(/tool "get" returned a value that is not JSON/);
          } finally {
            warn.mockRestore();
          }
        });
    });
});
