import type { AgentEvent } from '@replan/core';
import { planExecuteEventKind, stepText, stepsOf } from '@replan/planexecute';
import type { PlanRevision, PlanStepView, StepStatus } from '../../web/src/wire-types.js';

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
    const steps = open.mode === 'graph' ? graphSteps(open) : linearSteps(open);
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

  const linearSteps = (revision: OpenRevision): PlanStepView[] => {
    const steps: PlanStepView[] = executed.map((s) => ({ ...s, dependsOn: [] }));
    const plan = stepsOf(revision.plan);
    // Steps of this version that finished are already in `executed`.
    const doneHere = executed.length - revision.executedBefore;
    plan.slice(doneHere).forEach((step, i) => {
      const number = executed.length + 1 + i;
      const running = i === 0 && linearRunning.has(number);
      steps.push({
        key: running ? `n${number}` : `p${doneHere + i}`,
        label: stepText(step),
        dependsOn: [],
        status: running ? 'running' : 'pending',
      });
    });
    return steps;
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
