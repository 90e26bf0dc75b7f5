import { expect } from 'vitest';
import { runChild, type ChildConfig } from './child-process.js';
import type { StoreTarget } from './store-target.js';

/** The interrupt the `approval` scenario stops on: the transfer of step 2, turn 1. */
export const APPROVAL_ID = 's2t1c1:approval';

/** Starts the `approval` scenario in a first process, which must stop on the transfer's approval. */
export async function interruptedSession(target: StoreTarget, sessionId: string) {
  const base = { store: target.config, sessionId, scenario: 'approval', workDir: target.workDir } satisfies Partial<ChildConfig>;
  const first = await runChild({ ...base, mode: 'run', processLabel: 'asker' });
  expect(first.result).toMatchObject({
    status: 'interrupted',
    interrupts: [
      { id: APPROVAL_ID, reason: 'approval', toolName: 'transfer', payload: { tool: 'transfer', args: { to: 'bob', amount: 10 } } },
    ],
  });
  return base;
}
