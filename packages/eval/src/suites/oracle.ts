import type { ScriptedToolCall } from '@replan/core/testing';

/** One model turn of an oracle: one tool call, or several run together. */
export type OracleTurn = ScriptedToolCall | readonly ScriptedToolCall[];

/** One step of an oracle's plan: what a plan–execute executor (or a ReAct agent, turn by turn) does. */
export interface OracleStep {
  /** The step's id in a graph plan (letters, digits, `_`). */
  readonly id: string;
  /** The step as a planner would write it (unique within the task). */
  readonly task: string;
  /** Graph mode: the steps whose results this one needs. */
  readonly dependsOn?: readonly string[];
  /** The tool calls, one model turn per entry. */
  readonly calls?: readonly OracleTurn[];
  /** What the step reports (it should say what its tools returned). */
  readonly result: string;
}

/**
 * A scripted solution of a task: the plan, the revision written after a tool error (if the task
 * needs one), and the answer. CI runs every task's oracle as a ReAct, plan–execute and graph run
 * to prove the task is solvable and the scorers pass it; it says nothing about any model.
 */
export interface TaskOracle {
  readonly plan: readonly OracleStep[];
  /** The steps the replanner writes once `plan` has run (e.g. after a tool error). */
  readonly replan?: readonly OracleStep[];
  readonly answer: string;
}

/** The oracle's steps in the order they run. */
export const oracleSteps = (oracle: TaskOracle): readonly OracleStep[] => [...oracle.plan, ...(oracle.replan ?? [])];

/** The oracle's turns in order, each a list of calls. */
export function oracleTurns(oracle: TaskOracle): readonly (readonly ScriptedToolCall[])[] {
  return oracleSteps(oracle).flatMap((step) => (step.calls ?? []).map((turn) => (Array.isArray(turn) ? turn : [turn as ScriptedToolCall])));
}
