import {
  type Interrupt,
  messageText,
  stringifyToolOutput,
  toolCallsOf,
  toolResultsOf,
  type AgentEvent,
  type RunResult,
  type Usage,
} from '@replan/core';
import { totalTokens, type UsageBucket } from '@replan/core/agent-kit';
import { planExecuteEventKind } from '../event-kind.js';
import { stepsOf } from '../base/plan-schema.js';
import { grantNote, pendingReviewLines, stepLabel } from './plan-review-lines.js';
import { answeredInterruptLine, pendingInterruptLines } from './interrupt-lines.js';
import { clip, duration, type TerminalStyle } from './terminal-style.js';
import { codeCallLines, codeCallOf, innerCallLine, programOf } from './code-call-lines.js';

export interface RunTreeViewOptions {
  /** Where lines go. */
  readonly write: (text: string) => void;
  readonly style: TerminalStyle;
  /** Show streamed model output as it arrives (a TTY); plain output prints whole lines only. */
  readonly live: boolean;
  /** The model's token counts are made up (a scripted model): say so next to them. */
  readonly syntheticUsage?: boolean;
  /** Currency or unit printed before costs (default `$`). */
  readonly currency?: string;
}

interface StepProgress {
  readonly label: string;
  readonly started: number;
  usage: Usage | undefined;
}

const GRAPH_STEP = (step: unknown): step is { id: string; task: string; dependsOn?: string[] } =>
  typeof step === 'object' && step !== null && typeof (step as { id?: unknown }).id === 'string';

/**
 * Renders a plan–execute run's events as a tree: the plan, each step with its tool calls, status,
 * timing and tokens, revisions and the answer; then tokens and cost per step from the result.
 * Linear steps are numbered as the plan shows them (a revised plan continues the count); graph
 * steps are named by id.
 */
export class RunTreeView {
  private streaming = false;
  private currentStep: string | undefined;
  private lastPlan: readonly unknown[] = [];
  private finishedSteps = 0;
  private readonly steps = new Map<string, StepProgress>();
  /** Interrupts other than plan reviews shown as waiting, by id, with the indent they were shown at. */
  private readonly waiting = new Map<string, { readonly interrupt: Interrupt; readonly indent: string }>();
  /** Each code call's indent (its step's), by call id: its inner calls are drawn below it, parallel graph steps included. */
  private readonly codeCallIndents = new Map<string, string>();

  constructor(private readonly options: RunTreeViewOptions) {}

  objective(text: string): void {
    this.line(`${this.options.style.bold('◆ Objective')} ${text}`);
  }

  render(event: AgentEvent): void {
    const s = this.options.style;
    const blocked = event.actions?.invocationEnd?.guardrail;
    if (blocked) {
      this.endDelta();
      const reason = blocked.reason ? `: ${clip(blocked.reason)}` : '';
      this.line(`${s.red('└─ Blocked')} by the ${blocked.stage} guardrail "${blocked.name}"${reason}`);
      return;
    }
    this.interrupts(event);
    const kind = planExecuteEventKind(event);
    if (!kind) {
      // A code step's inner calls outside a plan step (a code tool of the planner, say): nested all the same.
      // Stored by the code tool itself (untagged): drawn under its code call's step, found by the call's id.
      const inner = codeCallOf(event);
      if (inner && !event.partial) {
        const indent = this.codeCallIndents.get(inner.id) ?? (this.currentStep === undefined ? '' : '│  ');
        this.toolLines(event, indent);
      }
      return;
    }
    if (event.partial) {
      if (kind.kind === 'step-progress' && this.options.live) {
        this.stepHeader(kind.stepId ?? String(kind.stepNumber), kind.step, event.timestamp);
        this.delta(messageText(event.message));
      }
      return;
    }
    const streamed = this.endDelta();
    switch (kind.kind) {
      case 'plan':
        this.plan(s.cyan('├─ Plan'), kind.plan);
        if (kind.problem) this.line(`│   ${s.red('plan problem')} ${clip(kind.problem)}`);
        break;
      case 'plan-step':
        this.line(`${s.cyan('├─ Plan step')} ${kind.step.id}. ${kind.step.task}${this.after(kind.step)}`);
        break;
      case 'revised-plan': {
        // The replanner drops the step just done; if the rest is unchanged the plan simply continues.
        const kept = JSON.stringify(stepsOf(kind.plan)) === JSON.stringify(this.lastPlan.slice(1));
        this.plan(
          kept
            ? `${s.cyan('├─ Plan continues')} ${s.dim('(the replanner kept the remaining steps)')}`
            : `${s.magenta('├─ Revised plan')} ${s.dim('(the replanner changed the remaining steps)')}`,
          kind.plan,
        );
        break;
      }
      case 'step-progress': {
        const key = kind.stepId ?? String(kind.stepNumber);
        this.stepHeader(key, kind.step, event.timestamp);
        this.count(key, event.usage);
        this.toolLines(event, this.indent(kind.stepId));
        break;
      }
      case 'compensation':
        for (const call of toolCallsOf(event.message))
          this.line(`${s.yellow('├─ undo')} ${call.name} ${s.dim(`${JSON.stringify(call.args)} (call ${kind.compensates})`)}`);
        for (const result of toolResultsOf(event.message))
          this.line(`${result.isError ? s.red('├─ undo failed') : s.dim('├─ undone')} ${clip(stringifyToolOutput(result.output))}`);
        break;
      case 'step-result': {
        const key = kind.stepId ?? String(kind.stepNumber);
        this.stepHeader(key, kind.executedStep.step, event.timestamp);
        this.count(key, event.usage);
        // A linear step's number counts the steps before it: a view of a resumed run starts mid-plan.
        this.finishedSteps = kind.stepId === undefined ? Math.max(this.finishedSteps + 1, kind.stepNumber) : this.finishedSteps + 1;
        const progress = this.steps.get(key);
        const took = progress ? ` ${s.dim(`${duration(event.timestamp - progress.started)}${this.tokens(progress.usage)}`)}` : '';
        const { result, error } = kind.executedStep as { result?: string; error?: string };
        const indent = this.indent(kind.stepId);
        if (error !== undefined) this.line(`${indent}${s.red('└─ failed')}${took} ${clip(error)}`);
        else this.line(`${indent}${s.green('└─ done')}${took}${streamed ? '' : ` ${clip(result ?? '')}`}`);
        break;
      }
      case 'repair':
        if (event.message?.role === 'user') this.line(`${s.red('├─ repair')} ${event.author}: ${clip(kind.problem)}`);
        break;
      case 'answer':
        this.line(`${s.green('└─ Answer')} ${kind.answer.text}`);
        // An answer given when the budget ran low says so, and what did not run.
        if (kind.answer.partial)
          this.line(
            `   ${s.yellow('partial: the budget ran low;')} not run: ${clip((kind.answer.notRun ?? []).map(stepLabel).join('; '))}`,
          );
        break;
      case 'error':
        this.line(`${s.red('└─ Stopped')} ${kind.error.name}: ${kind.error.message}`);
        break;
      case 'plan-review':
        for (const line of pendingReviewLines(kind, s)) this.line(line);
        break;
      case 'plan-reviewed':
        // An edit replaces the plan: show the one that runs.
        if (kind.answer === 'edit') this.plan(`${s.green('├─ Plan edited')} ${s.dim('(this plan runs instead)')}`, kind.plan);
        else {
          // A resumed run's view starts here: the approved plan is the one the next revision is compared with.
          this.lastPlan = stepsOf(kind.plan);
          this.line(s.green('├─ Plan approved'));
        }
        break;
      case 'plan-rejected':
        this.line(`${s.red('├─ Plan rejected')} ${clip(kind.feedback)} ${s.dim('(planning again with this feedback)')}`);
        break;
      case 'planning':
        break;
    }
  }

  /** A step's tool calls and results; a code call with its program, and its inner calls one level below it. */
  private toolLines(event: AgentEvent, indent: string): void {
    const s = this.options.style;
    const inner = codeCallOf(event);
    for (const call of toolCallsOf(event.message)) {
      const program = programOf(call);
      if (inner) this.line(innerCallLine(inner.index, call, indent, s));
      else if (program !== undefined) {
        this.codeCallIndents.set(call.id, indent);
        for (const line of codeCallLines(call, program, indent, s)) this.line(line);
      } else this.line(`${indent}${s.yellow('├─ tool')} ${call.name} ${s.dim(JSON.stringify(call.args))}`);
    }
    // A call a plan approval covered (`review.grants`) ran unasked: say which review granted it.
    const grantedBy = event.meta?.grantedBy;
    for (const result of toolResultsOf(event.message)) {
      if (inner) {
        this.line(innerCallLine(inner.index, result, indent, s));
        continue;
      }
      if (typeof grantedBy === 'string')
        this.line(`${indent}${s.green('├─ granted')} ${result.name} ${s.dim(`by plan review ${grantedBy}`)}`);
      const mark = result.isError ? s.red('├─ error') : s.dim('├─ returned');
      this.line(`${indent}${mark} ${clip(stringifyToolOutput(result.output))}`);
    }
  }

  /** A tool's approval request or question: what waits and how to answer; later, how it was answered. */
  private interrupts(event: AgentEvent): void {
    const s = this.options.style;
    const interrupt = event.actions?.interrupt;
    if (interrupt && interrupt.reason !== 'plan_review' && !event.partial) {
      this.endDelta();
      const indent = this.currentStep === undefined ? '' : '│  ';
      this.waiting.set(interrupt.id, { interrupt, indent });
      for (const line of pendingInterruptLines(interrupt, indent, s)) this.line(line);
    }
    const values = event.actions?.resumeValues;
    if (values)
      for (const [id, value] of Object.entries(values)) {
        // A resumed run's view starts at the answer: its approval request was shown by the run that
        // stopped. (Plan reviews have lines of their own.)
        const asked =
          this.waiting.get(id) ??
          (id.endsWith(':approval') ? { interrupt: { id, reason: 'approval', payload: undefined }, indent: '│  ' } : undefined);
        if (!asked) continue;
        this.waiting.delete(id);
        this.line(answeredInterruptLine(asked.interrupt, value, asked.indent, s));
      }
  }

  /** Tokens, calls, cost and time per step, then the run's and the session's totals. */
  summary(result: RunResult): void {
    this.endDelta();
    const s = this.options.style;
    const synthetic = this.options.syntheticUsage ? ` ${s.yellow('(synthetic: scripted model)')}` : '';
    const steps = Object.entries(result.breakdown.byLabel);
    this.line('');
    if (steps.length) {
      this.line(s.bold(`Per step${synthetic}`));
      for (const [step, bucket] of steps) this.line(`  Step ${step}  ${this.bucket(bucket)}`);
    }
    const u = result.usage;
    this.line(
      `${s.bold('status')} ${result.status} · ${result.modelCalls} model calls${toolCallText(result.toolCalls)} · tokens ${tokenText(u)}${synthetic}` +
        (result.cost ? ` · cost ${this.money(result.cost)}` : ''),
    );
    if (result.status === 'interrupted' && this.waiting.size)
      this.line(`${s.yellow('waiting on')} ${[...this.waiting.keys()].join(', ')} ${s.dim('(answer with runner.resume, as shown above)')}`);
    const session = result.session;
    if (session.modelCalls !== result.modelCalls)
      this.line(s.dim(`session so far: ${session.modelCalls} model calls · tokens ${tokenText(session.usage)}`));
  }

  private bucket(b: UsageBucket): string {
    const calls = `${b.modelCalls} call${b.modelCalls === 1 ? '' : 's'}`;
    const cost = b.cost ? ` · ${this.money(b.cost)}` : '';
    return `${calls} · ${tokenText(b.usage)}${cost} · model time ${duration(b.latencyMs)}${toolCallText(b.toolCalls)}`;
  }

  private money(amount: number): string {
    return `${this.options.currency ?? '$'}${amount < 0.01 ? amount.toFixed(6) : amount.toFixed(4)}`;
  }

  private tokens(usage: Usage | undefined): string {
    return usage ? ` · ${totalTokens(usage)} tokens${this.options.syntheticUsage ? ' (synthetic)' : ''}` : '';
  }

  private count(key: string, usage: Usage | undefined): void {
    const progress = this.steps.get(key);
    if (!progress || !usage) return;
    const u = progress.usage;
    progress.usage = u ? { inputTokens: u.inputTokens + usage.inputTokens, outputTokens: u.outputTokens + usage.outputTokens } : usage;
  }

  private after(step: { dependsOn?: readonly string[] }): string {
    return step.dependsOn?.length ? this.options.style.dim(` (after ${step.dependsOn.join(', ')})`) : '';
  }

  private plan(title: string, plan: unknown): void {
    const steps = stepsOf(plan);
    this.lastPlan = steps;
    this.line(title);
    // Linear steps keep the numbers they run under: a revised plan continues after the finished ones.
    steps.forEach((step, i) => {
      if (GRAPH_STEP(step)) this.line(`│   ${this.options.style.dim(`${step.id}.`)} ${step.task}${this.after(step)}${grantNote(step)}`);
      else this.line(`│   ${this.options.style.dim(`${this.finishedSteps + i + 1}.`)} ${stepLabel(step)}`);
    });
  }

  /** Graph steps run at once: their lines carry the step id. */
  private indent(stepId: string | undefined): string {
    return stepId === undefined ? '│  ' : `│  ${this.options.style.dim(`[${stepId}]`)} `;
  }

  private stepHeader(key: string, step: unknown, time: number): void {
    if (!this.steps.has(key)) this.steps.set(key, { label: key, started: time, usage: undefined });
    if (key === this.currentStep) return;
    this.currentStep = key;
    const text = GRAPH_STEP(step) ? step.task : stepLabel(step);
    this.line(`${this.options.style.bold(`├─ Step ${key}`)} ${text}`);
  }

  private line(text: string): void {
    this.options.write(`${text}\n`);
  }

  private delta(text: string): void {
    if (!text) return;
    if (!this.streaming) {
      this.streaming = true;
      this.options.write(`│  ${this.options.style.dim('│ ')}`);
    }
    this.options.write(text.replace(/\n/g, ' '));
  }

  /** Ends a streamed line; true when one was open. */
  private endDelta(): boolean {
    if (!this.streaming) return false;
    this.streaming = false;
    this.options.write('\n');
    return true;
  }
}

/** ` · 3 tool calls` (a code step's inner calls included), nothing for none (or a result from before they were counted). */
const toolCallText = (n: number | undefined): string => (n ? ` · ${n} tool call${n === 1 ? '' : 's'}` : '');

/** `120 in / 30 out`, then the prompt-cache share of the input (`· 80 cached · 20 cache write`), each part only when non-zero. */
function tokenText(u: Usage): string {
  const cached = u.cachedTokens ? ` · ${u.cachedTokens} cached` : '';
  const written = u.cacheWriteTokens ? ` · ${u.cacheWriteTokens} cache write` : '';
  return `${u.inputTokens} in / ${u.outputTokens} out${cached}${written}`;
}
