import { messageText, stringifyToolOutput, toolCallsOf, toolResultsOf, type AgentEvent } from '@replan/core';
import { planExecuteEventKind, stepsOf, stepText } from '@replan/planexecute';

const color = process.stdout.isTTY && !process.env.NO_COLOR;
const paint = (code: string) => (text: string) => (color ? `\x1b[${code}m${text}\x1b[0m` : text);
const dim = paint('2');
const bold = paint('1');
const cyan = paint('36');
const green = paint('32');
const yellow = paint('33');
const red = paint('31');
const magenta = paint('35');

const clip = (text: string, max = 110) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

/**
 * Prints a plan–execute run as a tree while it streams: the plan, each step with its tool calls
 * and results, revisions and the answer. Uses `planExecuteEventKind` to tell events apart.
 */
export class TreeRenderer {
  private streaming = false;
  private currentStep = 0;
  private lastPlan: readonly unknown[] = [];

  constructor(private readonly write: (text: string) => void = (t) => process.stdout.write(t)) {}

  objective(text: string): void {
    this.write(`${bold('◆ Objective')} ${text}\n`);
  }

  render(event: AgentEvent): void {
    const kind = planExecuteEventKind(event);
    if (!kind) return;
    if (kind.kind === 'step-progress' && event.partial) {
      this.stepHeader(kind.stepNumber, kind.step);
      return this.delta(messageText(event.message));
    }
    const streamed = this.endDelta();
    switch (kind.kind) {
      case 'plan':
        this.plan(cyan('├─ Plan'), kind.plan);
        break;
      case 'revised-plan': {
        // a replanner that only drops the step just done keeps the plan; anything else is a revision
        const kept = JSON.stringify(stepsOf(kind.plan)) === JSON.stringify(this.lastPlan.slice(1));
        this.plan(kept ? cyan('├─ Plan continues') : magenta('├─ Revised plan'), kind.plan);
        break;
      }
      case 'step-progress':
        this.stepHeader(kind.stepNumber, kind.step);
        for (const call of toolCallsOf(event.message))
          this.write(`│  ${yellow('├─ tool')} ${call.name} ${dim(JSON.stringify(call.args))}\n`);
        for (const result of toolResultsOf(event.message)) {
          const mark = result.isError ? red('├─ error') : dim('├─ returned');
          this.write(`│  ${mark} ${clip(stringifyToolOutput(result.output))}\n`);
        }
        break;
      case 'step-result':
        this.stepHeader(kind.stepNumber, kind.executedStep.step);
        // a streamed result is already on screen
        const { result, error } = kind.executedStep as { result?: string; error?: string };
        if (error !== undefined) this.write(`│  ${red('└─ failed')} ${clip(error)}\n`);
        else this.write(`│  ${green('└─ done')}${streamed ? '' : ` ${clip(result ?? '')}`}\n`);
        break;
      case 'repair':
        if (event.message?.role === 'user') this.write(`${red('├─ repair')} ${event.author}: ${clip(kind.problem)}\n`);
        break;
      case 'answer':
        this.write(`${green('└─ Answer')} ${kind.answer.text}\n`);
        break;
      case 'error':
        this.write(`${red('└─ Stopped')} ${kind.error.name}: ${kind.error.message}\n`);
        break;
      case 'planning':
        break;
    }
  }

  private plan(title: string, plan: unknown): void {
    this.lastPlan = stepsOf(plan);
    this.write(`${title}\n`);
    stepsOf(plan).forEach((step, i) => this.write(`│   ${dim(`${i + 1}.`)} ${stepText(step)}\n`));
  }

  private stepHeader(stepNumber: number, step: unknown): void {
    if (stepNumber === this.currentStep) return;
    this.currentStep = stepNumber;
    this.write(`${bold(`├─ Step ${stepNumber}`)} ${stepText(step)}\n`);
  }

  private delta(text: string): void {
    if (!text) return;
    if (!this.streaming) {
      this.streaming = true;
      this.write(`│  ${dim('│ ')}`);
    }
    this.write(text.replace(/\n/g, ' '));
  }

  /** Ends a streamed line; true when one was open. */
  private endDelta(): boolean {
    if (!this.streaming) return false;
    this.streaming = false;
    this.write('\n');
    return true;
  }
}
