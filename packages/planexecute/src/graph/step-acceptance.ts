import { graphStepSchema, type GraphStep } from './graph-plan.js';
import { graphPlanProblems } from './graph-validation.js';

const sameStep = (a: GraphStep, b: GraphStep) =>
  a.id === b.id && a.task === b.task && a.dependsOn.length === b.dependsOn.length && a.dependsOn.every((d, i) => d === b.dependsOn[i]);

/**
 * Decides which steps of a plan that is still streaming may start (the streaming planner). A step
 * is accepted when it matches `graphStepSchema`, its id is new, every id it depends on is an
 * accepted step, and the accepted steps plus it pass `graphPlanProblems` (the same rules as a whole
 * plan: `$id` references, self-dependencies; no cycle can form, since a step only depends on steps
 * accepted before it). A step that depends on a step not seen yet is held until that one is
 * accepted. Accepted steps are final: the complete plan must keep each of them unchanged.
 */
export class StepAcceptance {
  private readonly accepted = new Map<string, GraphStep>();
  private held: GraphStep[] = [];

  /** Steps accepted earlier (a resumed run's, from their stored events). */
  constructor(earlier: readonly GraphStep[] = []) {
    for (const s of earlier) this.accepted.set(s.id, s);
  }

  /** How many steps are accepted. */
  get size(): number {
    return this.accepted.size;
  }

  /** The accepted steps, in the order they were accepted. */
  steps(): GraphStep[] {
    return [...this.accepted.values()];
  }

  /** A new model answer starts: steps held from an earlier attempt are dropped. */
  newAttempt(): void {
    this.held = [];
  }

  /**
   * Offers a step object that just completed in the stream. Returns the steps this makes
   * acceptable (it and any held steps waiting for it), in an order where dependencies come first;
   * a step already accepted with the same definition (a resumed run re-streaming it) is not returned.
   */
  offer(value: unknown): GraphStep[] {
    const parsed = graphStepSchema.safeParse(value);
    if (!parsed.success) return [];
    const step = parsed.data;
    const known = this.accepted.get(step.id);
    if (known) return []; // unchanged: nothing new; changed: the final check reports it
    this.held.push(step);
    const out: GraphStep[] = [];
    for (let progress = true; progress; ) {
      progress = false;
      for (const s of this.held) {
        if (!this.acceptable(s)) continue;
        this.accepted.set(s.id, s);
        this.held = this.held.filter((h) => h !== s);
        out.push(s);
        progress = true;
        break;
      }
    }
    return out;
  }

  private acceptable(step: GraphStep): boolean {
    if (this.accepted.has(step.id) || !step.dependsOn.every((d) => this.accepted.has(d))) return false;
    return graphPlanProblems([...this.accepted.values(), step]).length === 0;
  }

  /**
   * What is wrong with a complete plan given the accepted steps (undefined when nothing): every
   * accepted step must be in it, unchanged, since it may already have run.
   */
  keptProblem(steps: readonly GraphStep[]): string | undefined {
    const byId = new Map(steps.map((s) => [s.id, s]));
    const changed = [...this.accepted.values()].filter((s) => {
      const now = byId.get(s.id);
      return !now || !sameStep(now, s);
    });
    if (!changed.length) return undefined;
    return `step(s) ${changed.map((s) => `"${s.id}"`).join(', ')} already started as written earlier in the stream, but the complete plan changes or drops them; a started step must stay unchanged`;
  }

  /** Whether a step id is accepted with exactly this definition. */
  isAccepted(step: GraphStep): boolean {
    const known = this.accepted.get(step.id);
    return known !== undefined && sameStep(known, step);
  }
}
