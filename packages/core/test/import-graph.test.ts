import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { importCycles, importGraph, layerOf, upwardImports } from './support/import-graph.js';

const core = importGraph(fileURLToPath(new URL('../src', import.meta.url)));

/**
 * core's folders, bottom first: a folder imports only from the folders before it. Data (messages,
 * models, events: `AgentEvent`, guardrail verdicts, `RunResult`) is at the bottom; `invocation` (the
 * context, the `Agent` contract with its guardrail types, the model call) is the floor agents, tools,
 * middleware and the runner stand on.
 * A new folder goes into this list at its place; a subfolder may be listed to sit above its parent.
 */
const CORE_LAYERS = [
  'errors',
  'messages',
  'models',
  'events',
  'tools',
  'sessions',
  'observe',
  'invocation',
  'middleware',
  'guardrails',
  'replay',
  'tools/offload',
  'context',
  'compaction',
  'prompt-cache',
  'hooks',
  'reasoning',
  'compensation',
  'runner',
  'composition',
  'agents',
  'testing',
  'store-kit',
  'agent-kit',
] as const;

/**
 * The imports allowed to run up the layers (at most 3), each with why it is not turned around.
 */
const ALLOWED_UPWARD = [
  // A child session's resume error names the status the parent run ended with: one type.
  'errors/composition-errors.ts -> events/agent-event.ts',
  // A model error carries the answer the model had streamed when it failed (`partial`): one type.
  'errors/model-error.ts -> messages/message.ts',
];

describe('import graph of @replan/core', () => {
  it('has no import circle (type-only imports count)', () => {
    expect(importCycles(core)).toEqual([]);
  });

  it('puts every file in a listed layer (the entry index.ts is above them all)', () => {
    const unplaced = [...core.keys()].filter((file) => file !== 'index.ts' && layerOf(file, CORE_LAYERS) === undefined);
    expect(unplaced).toEqual([]);
  });

  it('has at most 3 imports from a lower folder up to a higher one, each listed', () => {
    const upward = upwardImports(core, CORE_LAYERS);
    expect(upward).toEqual(ALLOWED_UPWARD);
    expect(upward.length).toBeLessThanOrEqual(3);
  });

  it('finds a circle and an upward import when there is one (the checks can fail)', () => {
    const graph = new Map([
      ['events/a.ts', ['sessions/b.ts']],
      ['sessions/b.ts', ['events/a.ts']],
      ['sessions/c.ts', []],
    ]);
    expect(importCycles(graph)).toEqual([['events/a.ts', 'sessions/b.ts']]);
    expect(upwardImports(graph, ['events', 'sessions'])).toEqual(['events/a.ts -> sessions/b.ts']);
  });
});
