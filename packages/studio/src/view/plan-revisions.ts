import type { AgentEvent } from '@replan/core';
import { planExecuteEventKind, stepText, stepsOf } from '@replan/planexecute';
import type { PlanRevision, PlanStepView, StepStatus } from '../../web/src/wire-types.js';
import { type LinearEntry, linearStepKeys } from './linear-step-keys.js';

interface GraphNode {
  readonly id: string;
  readonly label: string;
  readonly dependsOn: readonly string[];
}

interface OpenRevision {
  readonly eventIndex: number;
  readonly author: string;
  readonly timestamp: number;
  readonly mode: 'linear' | 'graph';
  readonly plan: unknown;
  /** Linear mode: how many steps had finished when this version was written. */
  readonly executedBefore: number;
  /** Built from a streaming planner's `plan-step` events; its `plan` event completes it. */
  readonly streaming?: boolean;
  /** The replanner's (a revision), not the planner's (a new plan). */
  readonly revised?: boolean;
}

const isGraphStep = (step: unknown): step is { id: string; task?: unknown; dependsOn?: unknown } =>
  typeof step === 'object' && step !== null && typeof (step as { id?: unknown }).id === 'string';

function graphNodesOf(plan: unknown): GraphNode[] {
  return stepsOf(plan)
    .filter(isGraphStep)
    .map((s) => ({
      id: s.id,
      label: typeof s.task === 'string' ? s.task : stepText(s),
      dependsOn: Array.isArray(s.dependsOn) ? s.dependsOn.filter((d): d is string => typeof d === 'string') : [],
    }));
}

const modeOf = (plan: unknown): 'linear' | 'graph' => (stepsOf(plan).some(isGraphStep) ? 'graph' : 'linear');

const labelsOf = (revision: OpenRevision): string[] =>
  revision.mode === 'graph' ? graphNodesOf(revision.plan).map((n) => `${n.id}: ${n.label}`) : stepsOf(revision.plan).map(stepText);

/**
 * Reads the plan versions of a plan–execute run from its events, each with its steps' status as
 * they stood until the next version (the latest: as they stand now). Linear mode lists the steps
 * already done, then the plan's; graph mode keeps every step that started under an earlier
 * version (a replanned graph lists only the steps still to run).
 */
export function planRevisions(events: readonly AgentEvent[]): PlanRevision[] {
  const revisions: PlanRevision[] = [];
  const executed: { key: string; label: string; status: StepStatus }[] = [];
  const linearRunning = new Map<number, string>();
  const graphStatus = new Map<string, StepStatus>();
  const graphNodes = new Map<string, GraphNode>();
  const streamed: unknown[] = [];
  let open: OpenRevision | undefined;
  let previousLabels: string[] = [];

  const close = () => {
    if (!open) return;
    const labels = labelsOf(open);
    let steps: PlanStepView[] = [];
    if (open.mode === 'graph') steps = graphSteps(open);
    else {
      // A planner's plan starts a new chain of versions; a replanner's continues the one before.
      const chain = open.revised ? linearChains.at(-1) : undefined;
      const link = { revision: revisions.length, ...linearEntries(open) };
      if (chain && chain.at(-1)?.revision === revisions.length - 1) chain.push(link);
      else linearChains.push([link]);
    }
    revisions.push({
      eventIndex: open.eventIndex,
      author: open.author,
      timestamp: open.timestamp,
      mode: open.mode,
      steps,
      added: labels.filter((l) => !previousLabels.includes(l)),
      removed: previousLabels.filter((l) => !labels.includes(l)),
    });
    previousLabels = stillToRun(open);
  };

  // A replanned plan lists only the steps still to run: compare it with what was left of the one before.
  const stillToRun = (revision: OpenRevision): string[] => {
    if (revision.mode === 'linear')
      return stepsOf(revision.plan)
        .slice(executed.length - revision.executedBefore)
        .map(stepText);
    return graphNodesOf(revision.plan)
      .filter((n) => (graphStatus.get(n.id) ?? 'pending') === 'pending' || graphStatus.get(n.id) === 'running')
      .map((n) => `${n.id}: ${n.label}`);
  };

  const graphSteps = (revision: OpenRevision): PlanStepView[] => {
    const current = new Set(graphNodesOf(revision.plan).map((n) => n.id));
    const out: PlanStepView[] = [];
    for (const node of graphNodes.values()) {
      const status = graphStatus.get(node.id) ?? 'pending';
      if (current.has(node.id) || status !== 'pending') out.push({ key: node.id, label: node.label, dependsOn: node.dependsOn, status });
    }
    return out;
  };

  // Linear versions get their steps' keys once the whole log is read (see `linearStepKeys`).
  const linearChains: { revision: number; before: PlanStepView[]; entries: LinearEntry[] }[][] = [];
  const linearEntries = (revision: OpenRevision): { before: PlanStepView[]; entries: LinearEntry[] } => {
    const before = executed.slice(0, revision.executedBefore).map((s) => ({ ...s, dependsOn: [] }));
    // Steps of this version that finished are already in `executed`.
    const entries: LinearEntry[] = executed
      .slice(revision.executedBefore)
      .map((s) => ({ label: s.label, status: s.status, number: Number(s.key.slice(1)) }));
    const doneHere = entries.length;
    stepsOf(revision.plan)
      .slice(doneHere)
      .forEach((step, i) => {
        const number = executed.length + 1 + i;
        const running = i === 0 && linearRunning.has(number);
        entries.push(
          running ? { label: stepText(step), status: 'running', number } : { label: stepText(step), status: 'pending', predicted: number },
        );
      });
    return { before, entries };
  };

  const addGraphNodes = (plan: unknown) => {
    for (const node of graphNodesOf(plan))
      if (!graphNodes.has(node.id) || graphStatus.get(node.id) === undefined) graphNodes.set(node.id, node);
  };

  events.forEach((event, index) => {
    const kind = planExecuteEventKind(event);
    if (!kind) return;
    switch (kind.kind) {
      case 'plan-step':
        streamed.push(kind.step);
        addGraphNodes({ steps: [kind.step] });
        if (!open?.streaming) {
          close();
          open = {
            eventIndex: index,
            author: event.author,
            timestamp: event.timestamp,
            mode: 'graph',
            plan: {},
            executedBefore: 0,
            streaming: true,
          };
        }
        open = { ...open, plan: { steps: [...streamed] } };
        break;
      case 'plan':
      case 'revised-plan': {
        if (!open?.streaming) close();
        const mode = modeOf(kind.plan);
        if (mode === 'graph') addGraphNodes(kind.plan);
        open = {
          eventIndex: index,
          author: event.author,
          timestamp: event.timestamp,
          mode,
          plan: kind.plan,
          executedBefore: executed.length,
          ...(kind.kind === 'revised-plan' ? { revised: true } : {}),
        };
        streamed.length = 0;
        break;
      }
      case 'step-progress':
        if (kind.stepId !== undefined) {
          if (!graphStatus.has(kind.stepId) || graphStatus.get(kind.stepId) === 'pending') graphStatus.set(kind.stepId, 'running');
        } else linearRunning.set(kind.stepNumber, stepText(kind.step));
        break;
      case 'step-result': {
        const failed = 'error' in (kind.executedStep ?? {}) && (kind.executedStep as { error?: unknown }).error !== undefined;
        if (kind.stepId !== undefined) graphStatus.set(kind.stepId, failed ? 'failed' : 'done');
        else {
          linearRunning.delete(kind.stepNumber);
          executed.push({ key: `n${kind.stepNumber}`, label: stepText(kind.executedStep?.step), status: failed ? 'failed' : 'done' });
        }
        break;
      }
      default:
        break;
    }
  });
  close();
  for (const chain of linearChains) {
    const keys = linearStepKeys(
      chain.map((link) => link.entries),
      (chain[0]?.revision ?? 0) + 1,
    );
    chain.forEach((link, r) => {
      const revision = revisions[link.revision] as PlanRevision;
      const own = link.entries.map((e, i): PlanStepView => ({ key: keys[r]?.[i] ?? '', label: e.label, dependsOn: [], status: e.status }));
      revisions[link.revision] = { ...revision, steps: [...link.before, ...own] };
    });
  }
  return revisions;
}

/** The events of one step: `key` is a graph step id or `n<stepNumber>` of a linear step. */
export function stepEvents(events: readonly AgentEvent[], key: string): { index: number; event: AgentEvent }[] {
  const linear = /^n(\d+)$/.exec(key);
  const out: { index: number; event: AgentEvent }[] = [];
  events.forEach((event, index) => {
    const kind = planExecuteEventKind(event);
    if (!kind || (kind.kind !== 'step-progress' && kind.kind !== 'step-result')) return;
    const match = linear && kind.stepId === undefined ? kind.stepNumber === Number(linear[1]) : kind.stepId === key;
    if (match) out.push({ index, event });
  });
  return out;
}
