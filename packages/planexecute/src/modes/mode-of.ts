import { ConfigurationError } from '@replan/core';
import { graphMode } from './graph-mode.js';
import { linearMode } from './linear-mode.js';
import type { PlanMode } from './plan-mode.js';

/** The `mode` option: `'linear'` (default), `'graph'`, or a `PlanMode` of your own. */
export type PlanModeOption = 'linear' | 'graph' | PlanMode;

/** The plan mode a `mode` option names. */
export function planModeOf(mode: PlanModeOption | undefined): PlanMode {
  if (mode === undefined) return linearMode;
  if (typeof mode === 'object' && mode !== null && typeof mode.name === 'string') return mode;
  const named = ({ linear: linearMode, graph: graphMode } as Record<string, PlanMode>)[mode as string];
  if (named) return named;
  throw new ConfigurationError(`createPlanExecuteAgent: mode must be 'linear', 'graph' or a PlanMode object, got ${JSON.stringify(mode)}.`);
}
