import { ReplanError } from '@replan/core';
import type { Parsed } from '../base/decision-call.js';
import { graphPlanSchema, type GraphStep } from './graph-plan.js';
import { referencesIn } from '../base/step-references.js';

/** Steps already run under this objective, by id. */
export interface FinishedSteps {
  /** Ids of steps that finished with a result: later steps may depend on them. */
  readonly succeeded: ReadonlySet<string>;
  /** Ids of steps that failed: never reused, never depended on. */
  readonly failed: ReadonlySet<string>;
}

export const noFinishedSteps: FinishedSteps = { succeeded: new Set(), failed: new Set() };

/**
 * What is wrong with a graph plan, as sentences a model can act on (empty when it is a valid DAG):
 * duplicate ids, reused finished ids, unknown or failed dependencies, `$id` references not listed
 * in `dependsOn`, and cycles (named by their path).
 */
export function graphPlanProblems(steps: readonly GraphStep[], finished: FinishedSteps = noFinishedSteps): string[] {
  const problems: string[] = [];
  const ids = new Set<string>();
  for (const s of steps) {
    if (ids.has(s.id)) problems.push(`step id "${s.id}" is used twice; give every step its own id`);
    if (finished.succeeded.has(s.id) || finished.failed.has(s.id))
      problems.push(`step id "${s.id}" belongs to a step that already ran; finished steps are never re-run, so give a new step a new id`);
    ids.add(s.id);
  }
  for (const s of steps) {
    const deps = new Set(s.dependsOn);
    for (const d of s.dependsOn) {
      if (d === s.id) problems.push(`step "${s.id}" depends on itself`);
      else if (finished.failed.has(d)) problems.push(`step "${s.id}" depends on "${d}", which failed; depend on the step that replaces it`);
      else if (!ids.has(d) && !finished.succeeded.has(d))
        problems.push(`step "${s.id}" depends on "${d}", which is not a step of the plan`);
    }
    for (const ref of referencesIn(s.task)) {
      const known = ids.has(ref.id) || finished.succeeded.has(ref.id) || finished.failed.has(ref.id);
      if (known && !deps.has(ref.id))
        problems.push(
          `step "${s.id}" uses $${ref.id} but "${ref.id}" is not in its dependsOn; add it to dependsOn or remove the reference`,
        );
      else if (!known && ref.braced) problems.push(`step "${s.id}" uses \${${ref.id}}, but there is no step "${ref.id}"`);
    }
  }
  const cycle = findCycle(steps);
  if (cycle) problems.push(`the steps form a cycle (${cycle.join(' → ')}); a plan must be a DAG, so remove one of these dependencies`);
  return problems;
}

/** One dependency cycle among the steps, as a closed path of ids, or undefined. */
function findCycle(steps: readonly GraphStep[]): string[] | undefined {
  const byId = new Map(steps.map((s) => [s.id, s]));
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (id: string): string[] | undefined => {
    const mark = state.get(id);
    if (mark === 'done') return undefined;
    if (mark === 'open') return [...path.slice(path.indexOf(id)), id];
    state.set(id, 'open');
    path.push(id);
    for (const d of byId.get(id)?.dependsOn ?? []) {
      if (d === id || !byId.has(d)) continue; // reported on their own
      const found = visit(d);
      if (found) return found;
    }
    path.pop();
    state.set(id, 'done');
    return undefined;
  };
  for (const s of steps) {
    const found = visit(s.id);
    if (found) return found.reverse();
  }
  return undefined;
}

/**
 * The `Plan` in session state is not a runnable graph. Planners and replanners validate every
 * plan they store, so this means the state was written by something else.
 */
export class InvalidPlanGraphError extends ReplanError {
  constructor(
    readonly agentName: string,
    readonly problems: readonly string[],
  ) {
    super(
      `Agent "${agentName}" cannot run the stored plan: ${problems.join('; ')}. ` +
        'Store graph plans only through a graph planner or replanner (createPlanner({ mode: "graph" })), which validate them.',
    );
  }
}

/** A parsed plan checked as a graph: its steps must match `graphPlanSchema` and form a valid DAG. */
export function checkGraphPlan<T>(
  value: T,
  finished: FinishedSteps = noFinishedSteps,
  planOf: (value: T) => unknown = (v) => v,
): Parsed<T> {
  const parsed = graphPlanSchema.safeParse(planOf(value));
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
    return { ok: false, problem: `the plan is not a graph of { id, task, dependsOn } steps (${issues})` };
  }
  const problems = graphPlanProblems(parsed.data.steps, finished);
  return problems.length ? { ok: false, problem: `the plan is not a valid graph: ${problems.join('; ')}` } : { ok: true, value };
}
