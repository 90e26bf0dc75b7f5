import { readForecast } from './budget-text.js';
import type { PlanForecastView } from './wire-types.js';

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
  /** The tools the step names (plan grants: approving the plan approves their calls in it); kept through an edit. */
  readonly tools?: readonly string[];
  /** The arguments it states per tool, kept with `tools`. */
  readonly args?: Readonly<Record<string, unknown>>;
}

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** A stored step's `tools` and `args` (plan grants), as an `EditableStep` keeps them. */
function grantFields(step: unknown): Pick<EditableStep, 'tools' | 'args'> {
  if (!isObject(step) || !Array.isArray(step.tools) || !step.tools.length) return {};
  return { tools: step.tools.map(String), ...(isObject(step.args) ? { args: step.args } : {}) };
}

/** What approving a step lets run unasked, e.g. ` · may call book {"train":"Night train"}`; empty when it names no tools. */
export function grantText(step: unknown): string {
  const { tools, args } = grantFields(step);
  if (!tools) return '';
  return ` · may call ${tools.map((t) => (isObject(args?.[t]) ? `${t} ${JSON.stringify(args?.[t])}` : t)).join(', ')}`;
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
  /** When the run has limits: the steps' estimates summed against what is left (minus the answer's reserve). */
  readonly forecast?: PlanForecastView;
}

const stepText = (step: unknown): string => {
  if (typeof step === 'string') return step;
  if (step && typeof step === 'object' && 'task' in step) {
    const s = step as { id?: unknown; task: unknown };
    return `${typeof s.id === 'string' ? `${s.id}: ${String(s.task)}` : String(s.task)}${grantText(step)}`;
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
  const p = payload as {
    kind?: unknown;
    role?: unknown;
    agent?: unknown;
    plan?: unknown;
    diff?: unknown;
    reason?: unknown;
    forecast?: unknown;
  };
  const forecast = readForecast(p.forecast);
  const raw = (p.plan as { steps?: unknown } | undefined)?.steps;
  if (p.kind !== PLAN_REVIEW_REASON || !Array.isArray(raw)) return undefined;
  // Graph steps have ids and dependencies; a linear step is text, or `{ task, tools, args }` with plan grants.
  const graph = raw.some((s) => isObject(s) && 'id' in s && 'dependsOn' in s);
  const steps = raw.map((s): EditableStep => {
    if (!graph) return { id: '', task: isObject(s) ? String(s.task ?? '') : String(s), dependsOn: '', ...grantFields(s) };
    const g = s as { id?: unknown; task?: unknown; dependsOn?: unknown };
    return {
      id: String(g.id ?? ''),
      task: String(g.task ?? ''),
      dependsOn: Array.isArray(g.dependsOn) ? g.dependsOn.map(String).join(', ') : '',
      ...grantFields(s),
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
    ...(forecast ? { forecast } : {}),
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
  // A step's tools (plan grants) stay with it: the edited plan grants what the reviewer was shown.
  const grant = (s: EditableStep) => (s.tools?.length ? { tools: s.tools, ...(s.args ? { args: s.args } : {}) } : undefined);
  if (mode === 'linear') return { edit: { steps: steps.map((s) => (grant(s) ? { task: s.task, ...grant(s) } : s.task)) } };
  return {
    edit: {
      steps: steps.map((s) => ({
        id: s.id.trim(),
        task: s.task,
        dependsOn: s.dependsOn
          .split(/[\s,]+/)
          .map((d) => d.trim())
          .filter(Boolean),
        ...grant(s),
      })),
    },
  };
}
