/**
 * A `plan_review` interrupt read from its payload, and the answers the page sends for it
 * (`{ approve: true }`, `{ edit: plan }`, `{ reject: feedback }`). Kept apart from the DOM so the
 * answers can be checked without a browser.
 */

/** The interrupt reason of a plan review (the planner's or replanner's plan held for a person). */
export const PLAN_REVIEW_REASON = 'plan_review';

/** A step as the page edits it: linear steps have only a task; graph steps an id and dependencies too. */
export interface EditableStep {
  readonly id: string;
  readonly task: string;
  /** Graph steps: the ids it depends on, as typed (comma-separated). */
  readonly dependsOn: string;
}

export interface PlanReviewView {
  readonly mode: 'linear' | 'graph';
  readonly role: string;
  readonly agent: string;
  readonly steps: readonly EditableStep[];
  /** A revision: what it changes, one line per change (`+ step`, `- step`, `~ before → after`). */
  readonly diff: readonly string[];
  /** Why it is reviewed although the options would let it pass (it stalled). */
  readonly reason?: string;
}

const stepText = (step: unknown): string => {
  if (typeof step === 'string') return step;
  if (step && typeof step === 'object' && 'task' in step) {
    const s = step as { id?: unknown; task: unknown };
    return typeof s.id === 'string' ? `${s.id}: ${String(s.task)}` : String(s.task);
  }
  return JSON.stringify(step);
};

/** Reads a plan review from the interrupt's payload text, or `undefined` when it is not one. */
export function readPlanReview(payloadText: string): PlanReviewView | undefined {
  let payload: unknown;
  try {
    payload = JSON.parse(payloadText);
  } catch {
    return undefined;
  }
  if (!payload || typeof payload !== 'object') return undefined;
  const p = payload as { kind?: unknown; role?: unknown; agent?: unknown; plan?: unknown; diff?: unknown; reason?: unknown };
  const raw = (p.plan as { steps?: unknown } | undefined)?.steps;
  if (p.kind !== PLAN_REVIEW_REASON || !Array.isArray(raw)) return undefined;
  const graph = raw.some((s) => s !== null && typeof s === 'object');
  const steps = raw.map((s): EditableStep => {
    if (!graph) return { id: '', task: String(s), dependsOn: '' };
    const g = s as { id?: unknown; task?: unknown; dependsOn?: unknown };
    return {
      id: String(g.id ?? ''),
      task: String(g.task ?? ''),
      dependsOn: Array.isArray(g.dependsOn) ? g.dependsOn.map(String).join(', ') : '',
    };
  });
  const d = p.diff as { added?: unknown[]; removed?: unknown[]; changed?: { before: unknown; after: unknown }[] } | undefined;
  const diff = d
    ? [
        ...(d.added ?? []).map((s) => `+ ${stepText(s)}`),
        ...(d.removed ?? []).map((s) => `- ${stepText(s)}`),
        ...(d.changed ?? []).map((c) => `~ ${stepText(c.before)} → ${stepText(c.after)}`),
      ]
    : [];
  return {
    mode: graph ? 'graph' : 'linear',
    role: String(p.role ?? ''),
    agent: String(p.agent ?? ''),
    steps,
    diff,
    ...(typeof p.reason === 'string' && p.reason ? { reason: p.reason } : {}),
  };
}

/** The answer that runs the plan as written. */
export const approveAnswer = (): { approve: true } => ({ approve: true });

/** The answer that has the planner plan again with `feedback` in its input. */
export const rejectAnswer = (feedback: string): { reject: string } => ({ reject: feedback.trim() });

/**
 * The answer that runs the edited steps instead. Linear: the tasks, as typed (the server checks
 * the plan, so an empty task is sent and refused there with its own message). Graph: each step's
 * id, task and dependencies (comma- or space-separated ids).
 */
export function editAnswer(mode: 'linear' | 'graph', steps: readonly EditableStep[]): { edit: { steps: unknown[] } } {
  if (mode === 'linear') return { edit: { steps: steps.map((s) => s.task) } };
  return {
    edit: {
      steps: steps.map((s) => ({
        id: s.id.trim(),
        task: s.task,
        dependsOn: s.dependsOn
          .split(/[\s,]+/)
          .map((d) => d.trim())
          .filter(Boolean),
      })),
    },
  };
}
