import { runChild, type ChildConfig } from './child-process.js';
import {
  eventsByStep,
  finishedSteps,
  projectState,
  readAttempts,
  readEffects,
  storedModelAnswers,
  storedToolResults,
} from './session-view.js';
import { withTarget, type StoreTarget, type TargetFactory } from './store-target.js';

/** A scenario of the child (child/scenarios.mjs) that runs to an answer. */
export type RunScenario = Exclude<ChildConfig['scenario'], 'approval' | 'nested'>;

/** What a run leaves behind, in a form two runs of the same work can be compared in. */
export interface RunRecord {
  readonly output: string | undefined;
  /** The session state (graph steps in id order, see `projectState`). */
  readonly state: Readonly<Record<string, unknown>>;
  /** The stored events by graph step, each in stored order (see `eventsByStep`). */
  readonly events: ReturnType<typeof eventsByStep>;
  /** Side effects by tool call id, sorted (steps of a wave make theirs in either order). */
  readonly effects: string[];
}

export interface Baseline extends RunRecord {
  readonly scenario: RunScenario;
  /** The marker labels of the run, in order: the possible kill points. */
  readonly markers: string[];
  readonly modelCalls: number;
  readonly toolCalls: number;
}

export interface KillPlan {
  /** The first process freezes at this marker and is killed there. */
  readonly killAt: number;
  /** The first resuming process is killed too, as soon as it prints this marker (not frozen). */
  readonly secondKillOn?: number;
}

export interface KillOutcome extends RunRecord {
  readonly plan: KillPlan;
  /** The marker label of the first kill. */
  readonly killedAfter: string | undefined;
  /** The first process's marker labels, up to its kill. */
  readonly killedMarkers: readonly string[];
  /** The marker label of the second kill, when it landed before the process finished. */
  readonly secondKilledAfter: string | undefined;
  /** Processes started, the first included. */
  readonly processes: number;
  /** Broken guarantees: work that ran again although its result was stored, a failed resume. */
  readonly problems: string[];
}

const MAX_PROCESSES = 5;

/** What a run left behind: its answer, the session's state and events, the side effects. */
async function recordOf(target: StoreTarget, sessionId: string, output: string | undefined): Promise<RunRecord> {
  const session = await target.session(sessionId);
  return {
    output,
    state: projectState(session?.state ?? {}),
    events: eventsByStep(session?.events ?? []),
    effects: (await readEffects(target.workDir, sessionId)).sort(),
  };
}

/** Runs the scenario once in one process, without a kill. */
export async function runBaseline(newTarget: TargetFactory, scenario: RunScenario): Promise<Baseline> {
  return withTarget(newTarget, async (target) => {
    const sessionId = 'baseline';
    const outcome = await runChild({ store: target.config, sessionId, scenario, mode: 'run', workDir: target.workDir, processLabel: 'p0' });
    if (outcome.result?.status !== 'completed') throw new Error(`baseline run ended ${JSON.stringify(outcome.result)}`);
    const attempts = await readAttempts(target.workDir);
    return {
      ...(await recordOf(target, sessionId, outcome.result.output)),
      scenario,
      markers: outcome.markers,
      modelCalls: attempts.filter((a) => a.kind === 'model').length,
      toolCalls: attempts.filter((a) => a.kind === 'tool').length,
    };
  });
}

/**
 * Kills a first process at `plan.killAt`, then starts new processes that resume the session
 * until one completes. Before each resume it reads what is stored, and checks that the process
 * runs no tool call whose result is stored and no model call for a step whose result is stored,
 * and (when it completes) makes exactly the model calls and tool runs that were missing.
 */
export async function killAndResume(newTarget: TargetFactory, plan: KillPlan, baseline: Baseline): Promise<KillOutcome> {
  return withTarget(newTarget, async (target) => {
    const sessionId = `kill-${plan.killAt}`;
    const base = { store: target.config, sessionId, scenario: baseline.scenario, workDir: target.workDir } satisfies Partial<ChildConfig>;
    const problems: string[] = [];
    const first = await runChild({ ...base, mode: 'run', killAt: plan.killAt, processLabel: 'p0' });
    if (!first.killed) problems.push(`the first process was not killed at marker ${plan.killAt}`);
    let secondKilledAfter: string | undefined;
    let output: string | undefined;
    let processes = 1;
    for (;;) {
      if (processes >= MAX_PROCESSES) {
        problems.push(`no process completed the run after ${MAX_PROCESSES} tries`);
        break;
      }
      const before = (await target.session(sessionId))?.events ?? [];
      const stored = storedToolResults(before);
      const answers = storedModelAnswers(before);
      const finished = finishedSteps(before);
      const label = `p${processes}`;
      const kill = processes === 1 && plan.secondKillOn ? { killOn: plan.secondKillOn } : {};
      const outcome = await runChild({ ...base, mode: 'continue', processLabel: label }, kill);
      processes++;
      const attempts = (await readAttempts(target.workDir)).filter((a) => a.process === label);
      const toolRuns = attempts.flatMap((a) => (a.kind === 'tool' ? [a.callId] : []));
      for (const id of toolRuns)
        if (id && stored.has(id)) problems.push(`${label} ran tool call ${id} again although its result was stored`);
      for (const a of attempts)
        if (a.role === 'executor' && a.step !== undefined && finished.has(a.step))
          problems.push(`${label} ran step "${a.step}" again although its result was stored`);
      if (outcome.killed) {
        secondKilledAfter = outcome.killedAfter;
        continue;
      }
      if (outcome.result?.status !== 'completed') problems.push(`${label} ended ${JSON.stringify(outcome.result)}`);
      const modelCalls = attempts.filter((a) => a.kind === 'model').length;
      if (modelCalls !== baseline.modelCalls - answers)
        problems.push(`${label} made ${modelCalls} model calls; ${baseline.modelCalls - answers} were missing (${answers} answers stored)`);
      if (toolRuns.length !== baseline.toolCalls - stored.size)
        problems.push(`${label} ran ${toolRuns.length} tool calls; ${baseline.toolCalls - stored.size} had no stored result`);
      output = outcome.result?.output;
      break;
    }
    return {
      ...(await recordOf(target, sessionId, output)),
      plan,
      killedAfter: first.killedAfter,
      killedMarkers: first.markers,
      secondKilledAfter,
      processes,
      problems,
    };
  });
}

/** Runs `fn` over `items`, at most `limit` at once, keeping the order of the results. */
export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** The part of the run a marker label belongs to. */
export function phaseOf(label: string): 'planner' | 'executor' | 'tool' | 'replanner' | 'other' {
  if (label.startsWith('tool:') || label.includes('tool-result')) return 'tool';
  if (label.includes('replanner')) return 'replanner';
  if (label.includes('planner')) return 'planner';
  if (label.includes('executor')) return 'executor';
  return 'other';
}
