import type { ChatModel, Message, Middleware, ModelSettings, SchemaInput, Tool } from '@replan/core';
import type { ContextPolicy } from './context-policy.js';
import type { GraphStepInput } from '../graph/graph-prompts.js';
import type { ExecutorInput } from './session-keys.js';

/** The executor's options (`createExecutor`); the plan–execute agent's mode decides how its steps run. */
export interface ExecutorOptions {
  readonly model: ChatModel;
  readonly tools?: readonly Tool[];
  /** Replaces the system text of `ExecutorPrompt`. */
  readonly instruction?: string;
  /** Replaces the whole default input (system message included), built from the step's context. */
  readonly buildInput?: (input: ExecutorInput) => readonly Message[] | Promise<readonly Message[]>;
  /** Graph mode: replaces a step's whole default input (system message included). */
  readonly buildGraphInput?: (input: GraphStepInput) => readonly Message[] | Promise<readonly Message[]>;
  /**
   * Most model calls for one step (default 10). Reaching it fails the step: `ExecutedStep.error`
   * says so and the replanner decides what to do (the run goes on).
   */
  readonly maxIterations?: number;
  /** A structured step result (zod v4 or v3, or JSON Schema: see `ReActAgent`'s `outputSchema`), stored in `ExecutedStep.structured`. */
  readonly outputSchema?: SchemaInput;
  readonly toolConcurrency?: number;
  readonly settings?: ModelSettings;
  readonly name?: string;
  readonly description?: string;
  /**
   * Which completed-step results the step's prompt shows (default `'full'` in linear mode,
   * `'referenced'` in graph mode). Recorded in `meta.contextPolicy` of the step's events.
   */
  readonly contextPolicy?: ContextPolicy;
  /**
   * The step loop's middleware (see `ReActAgent`'s `middleware`), e.g. `compaction()` (older turns
   * of a long step are summarised; the objective, the plan and the step's task stay verbatim),
   * `offloadToolResults()`, `promptCache()` (one key per session for all of this executor's steps,
   * so parallel graph steps share their cached prefix), `hooks({...})`.
   */
  readonly middleware?: readonly Middleware[];
}
