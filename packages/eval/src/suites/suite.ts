import type { Interrupt } from '@replan/core';
import { z } from 'zod';
import { EvalInputError } from '../errors.js';
import type { Domain } from './domain.js';
import type { TaskOracle } from './oracle.js';

/**
 * What a run must leave behind. `db`: a predicate over the run's final database (`true` passes;
 * a string is the reason it failed), or a partial database that must be contained in it (objects
 * key by key with other keys allowed, arrays of the same length element by element, values exactly). `answerIncludes`: facts the answer must contain
 * (case-insensitive).
 */
export interface TaskExpectation<Db> {
  readonly db?: ((db: Db) => boolean | string) | DeepPartial<Db>;
  readonly answerIncludes?: readonly string[];
}

/** A part of a value: objects with fewer keys, arrays of parts. */
export type DeepPartial<T> = T extends readonly (infer U)[]
  ? readonly DeepPartial<U>[]
  : T extends object
    ? { readonly [K in keyof T]?: DeepPartial<T[K]> }
    : T;

/** One task: a user's request over a domain, what must come of it, and a scripted solution. */
export interface SuiteTask<Db> {
  /** Unique in its suite: letters, digits, `-` and `_`. */
  readonly id: string;
  /** What the user asks, in their words. */
  readonly request: string;
  readonly expect: TaskExpectation<Db>;
  /** How a person answers the task's approval requests: `true` approves (default), `false` denies. */
  readonly approve?: boolean | ((interrupt: Interrupt) => boolean);
  /** A scripted run that solves the task (CI proves each task solvable with it). */
  readonly oracle: TaskOracle;
  /** What the task exercises, for readers (e.g. `replan`, `policy`, `approval`, `parallel`). */
  readonly tags?: readonly string[];
}

/** A suite of any database type (e.g. a list of suites of different domains). */
// biome-ignore lint/suspicious/noExplicitAny: a suite's database type is its own; a list of suites holds several
export type AnySuite = Suite<any>;

/** A suite: tasks over one domain. */
export interface Suite<Db = unknown> {
  readonly name: string;
  readonly domain: Domain<Db>;
  readonly tasks: readonly SuiteTask<Db>[];
}

const callSchema = z.object({ name: z.string().min(1), args: z.record(z.string(), z.unknown()).optional(), id: z.string().optional() });
const stepSchema = z.object({
  id: z.string().regex(/^[A-Za-z0-9_]+$/, 'letters, digits and _'),
  task: z.string().trim().min(1, 'a step needs text'),
  dependsOn: z.array(z.string()).optional(),
  calls: z.array(z.union([callSchema, z.array(callSchema)])).optional(),
  result: z.string(),
});
const taskSchema = z.object({
  id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'letters, digits, - and _ (at most 64)'),
  request: z.string().trim().min(1, 'a task needs a request'),
  expect: z
    .object({
      db: z.unknown().optional(),
      answerIncludes: z.array(z.string().min(1)).optional(),
    })
    .refine((e) => e.db !== undefined || (e.answerIncludes?.length ?? 0) > 0, 'expect needs db or answerIncludes'),
  approve: z.unknown().optional(),
  oracle: z.object({ plan: z.array(stepSchema).min(1), replan: z.array(stepSchema).optional(), answer: z.string().min(1) }),
  tags: z.array(z.string()).optional(),
});

/** A task that fails its schema: the suite goes on without it, and the report names it as failed. */
export interface InvalidTask {
  readonly id: string;
  readonly error: string;
}

/** What `checkSuite` finds: the tasks to run and the tasks that cannot be run. */
export interface CheckedSuite<Db> {
  readonly suite: Suite<Db>;
  readonly invalid: readonly InvalidTask[];
}

const issueText = (error: z.ZodError) => error.issues.map((i) => `${i.path.join('.') || '(task)'}: ${i.message}`).join('; ');

/**
 * Splits a suite into its runnable tasks and those that fail the task schema (each with why), so a
 * bad task is reported as failed while the others run. Throws an `EvalInputError` of kind `set` for a suite with no
 * name, no domain or no task list.
 */
export function checkSuite<Db>(suite: Suite<Db>): CheckedSuite<Db> {
  if (!suite || typeof suite.name !== 'string' || !suite.name) throw new EvalInputError('set', 'A suite needs a name.');
  if (!suite.domain || typeof suite.domain.db !== 'function' || typeof suite.domain.tools !== 'function')
    throw new EvalInputError('set', `Suite "${suite.name}" needs a domain from defineDomain({ name, db, tools, policy }).`);
  if (!Array.isArray(suite.tasks)) throw new EvalInputError('set', `Suite "${suite.name}" needs tasks: an array.`);
  const tasks: SuiteTask<Db>[] = [];
  const invalid: InvalidTask[] = [];
  const seen = new Set<string>();
  suite.tasks.forEach((task, index) => {
    const id = typeof task?.id === 'string' && task.id ? task.id : `#${index + 1}`;
    const parsed = taskSchema.safeParse(task);
    if (!parsed.success) invalid.push({ id, error: issueText(parsed.error) });
    else if (seen.has(id)) invalid.push({ id, error: `a second task with the id "${id}"` });
    else {
      seen.add(id);
      tasks.push(task);
    }
  });
  return { suite: { ...suite, tasks }, invalid };
}

/** Checks a suite strictly (every task valid) and returns it; throws an `EvalInputError` of kind `set` naming each bad task. */
export function defineSuite<Db>(suite: Suite<Db>): Suite<Db> {
  const { invalid } = checkSuite(suite);
  if (invalid.length)
    throw new EvalInputError('set', `Suite "${suite.name}" has invalid tasks: ${invalid.map((t) => `${t.id} (${t.error})`).join('; ')}.`);
  return suite;
}
