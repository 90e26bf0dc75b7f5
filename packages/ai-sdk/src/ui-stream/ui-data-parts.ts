import type { GuardrailTrip } from '@replan/core';
import type { UIMessage, UIMessageChunk } from 'ai';

/** `data-plan`: the plan in force; one part per message (id `plan`), replaced on every revision. */
export interface PlanData {
  readonly plan: unknown;
  /** 0 for the planner's plan, then 1, 2, … for each revision by the replanner. */
  readonly revision: number;
}

/** Where a step stands. `pending`: a graph step not started yet. */
export type StepStatus = 'pending' | 'running' | 'done' | 'failed';

/**
 * `data-step`: one part per step (id `step-<graph id>` in graph mode, `step-<n>` for the n-th step
 * of a linear run), updated in place as it runs.
 */
export interface StepData {
  /** The graph step's id (graph mode). */
  readonly id?: string;
  /** The linear step's number (1, 2, …); 0 in graph mode. */
  readonly number: number;
  /** The step as the plan wrote it. */
  readonly step: unknown;
  readonly status: StepStatus;
  /** The ids it waits for (graph mode). */
  readonly dependsOn?: readonly string[];
  /** The executor's answer for the step (status `done`). */
  readonly result?: string;
  /** Why it failed (status `failed`). */
  readonly error?: string;
}

/** `data-interrupt`: a question the run stopped on that is not a tool approval (e.g. a plan review). */
export interface InterruptData {
  readonly id: string;
  readonly reason: string;
  readonly payload: unknown;
}

/**
 * `data-guardrail`: the guardrail that blocked the run (id `guardrail`). The stream withholds a
 * blocked answer's text and says the block in a text part too.
 */
export type GuardrailData = GuardrailTrip;

/**
 * `data-compensation`: the undoing of a finished tool call (`tool({ compensate })`, after
 * `run.abort({ compensate })`, `runner.cancel` or a replan that drops steps). One part per call to
 * undo (id `compensation-<callId>`): `running` then `done` or `failed` in place, or `skipped`. It is no tool
 * part: the call it undoes keeps its own, and a UI shows the two together by `callId`.
 */
export interface CompensationData {
  /** The id of the tool call undone (the tool part it belongs with). */
  readonly callId: string;
  /** The tool whose `compensate` runs. */
  readonly tool: string;
  /** `skipped`: not undone, its result was never stored (it may or may not have run): for a person to check. */
  readonly status: 'running' | 'done' | 'failed' | 'skipped';
  /** What the compensation returned (`done`). */
  readonly output?: unknown;
  /** Why it failed (`failed`): the run then ends with a `CompensationError`. */
  readonly error?: string;
}

/** The data parts a replan stream sends. */
export type ReplanDataParts = {
  plan: PlanData;
  step: StepData;
  interrupt: InterruptData;
  guardrail: GuardrailData;
  compensation: CompensationData;
};

/** The UI message a replan stream builds: type `useChat`/`Chat` with it to get typed data parts. */
export type ReplanUIMessage = UIMessage<unknown, ReplanDataParts>;

/** One chunk of a replan UI message stream. */
export type ReplanUIChunk = UIMessageChunk<unknown, ReplanDataParts>;
