import type { ScriptedToolCall } from '@replan/core/testing';
import type { OracleStep, OracleTurn } from '../oracle.js';

/** A tool call of an oracle. */
export const call = (name: string, args: Record<string, unknown> = {}): ScriptedToolCall => ({ name, args });

/** A step of an oracle: its id, its task, its turns and what it reports; `after` lists the steps it depends on. */
export const step = (
  id: string,
  task: string,
  calls: readonly OracleTurn[],
  result: string,
  after: readonly string[] = [],
): OracleStep => ({
  id,
  task,
  calls,
  result,
  ...(after.length ? { dependsOn: after } : {}),
});

/** A tool's error: thrown, so the agent sees an error result it can read. */
export class DomainRuleError extends Error {
  override readonly name = 'DomainRuleError';
}
