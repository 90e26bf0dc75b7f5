import type { ChatModel, Runner } from '@replan/core';
import { ReplayModel, ScriptedModel } from '@replan/core/testing';
import type { RunnerView } from '../web/src/wire-types.js';

/** How far into an agent's objects to look for its models (a plan–execute agent holds them three levels down). */
const MAX_DEPTH = 6;
const MAX_OBJECTS = 2000;

const isModel = (value: object): value is ChatModel =>
  typeof (value as ChatModel).id === 'string' &&
  typeof (value as ChatModel).generate === 'function' &&
  typeof (value as ChatModel).stream === 'function';

/**
 * The models a runner's agents hold, found by looking through the agent's objects (an `Agent` does
 * not name its models), each marked when it is offline: a `ScriptedModel` answers from a script and
 * a `ReplayModel` from a recording, so no provider is called and the answers are canned.
 */
export function runnerView(runner: Runner): RunnerView {
  const models = new Map<string, RunnerView['models'][number]>();
  const seen = new Set<object>();
  const visit = (value: unknown, depth: number) => {
    if (typeof value !== 'object' || value === null || seen.has(value) || seen.size >= MAX_OBJECTS) return;
    seen.add(value);
    if (isModel(value)) {
      const offline = value instanceof ScriptedModel ? 'scripted' : value instanceof ReplayModel ? 'replay' : undefined;
      models.set(value.id, { id: value.id, ...(offline ? { offline } : {}) });
      return;
    }
    if (depth >= MAX_DEPTH) return;
    for (const child of Array.isArray(value) ? value : Object.values(value)) visit(child, depth + 1);
  };
  visit(runner.agent, 0);
  return { app: runner.appName, models: [...models.values()] };
}
