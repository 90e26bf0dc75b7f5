import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileSessionStore, type Interrupt, type Middleware, type RunResult, type SessionStore, type Tool } from '@replan/core';
import { ScriptedModel, type ScriptedReply } from '@replan/core/testing';
import type { z } from 'zod';
import { createPlanExecuteAgent, type PlanModeOption, type PlanReviewOptions } from '@replan/planexecute';
import { runnerFor } from './support.js';

const dirs: string[] = [];

/** A file store in a new temp directory (removed by `removeStores`). */
export async function fileStore(): Promise<SessionStore> {
  const dir = await mkdtemp(join(tmpdir(), 'replan-review-'));
  dirs.push(dir);
  return new FileSessionStore({ dir });
}

export const removeStores = () => Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));

export interface ProcessScripts {
  readonly planner?: readonly ScriptedReply[];
  readonly executor?: readonly ScriptedReply[];
  readonly replanner?: readonly ScriptedReply[];
}

export interface ProcessOptions {
  readonly review?: PlanReviewOptions;
  readonly mode?: PlanModeOption;
  readonly maxStalls?: number;
  readonly maxIterations?: number;
  readonly tools?: readonly Tool[];
  readonly stepMaxIterations?: number;
  readonly streamingPlan?: boolean;
  readonly planSchema?: z.ZodObject;
  readonly middleware?: { readonly executor?: readonly Middleware[] };
}

/**
 * One process of a plan–execute app: a new agent, new scripted models (only this process's calls)
 * and a new Runner over `store`, as after a restart.
 */
export function processOn(store: SessionStore, scripts: ProcessScripts, options: ProcessOptions = {}) {
  const planner = new ScriptedModel({ id: 'planner-model', responses: scripts.planner ?? [] });
  const executor = new ScriptedModel({ id: 'executor-model', responses: scripts.executor ?? [] });
  const replanner = new ScriptedModel({ id: 'replanner-model', responses: scripts.replanner ?? [] });
  const agent = createPlanExecuteAgent({
    model: executor,
    plannerModel: planner,
    executorModel: executor,
    replannerModel: replanner,
    ...options,
  });
  return { planner, executor, replanner, agent, ...runnerFor(agent, store) };
}

/** The one open plan review of an interrupted result. */
export function reviewOf(result: RunResult): Interrupt {
  const reviews = result.interrupts.filter((i) => i.reason === 'plan_review');
  if (result.status !== 'interrupted' || reviews.length !== 1)
    throw new Error(`expected one open plan review, got ${result.status} with ${JSON.stringify(result.interrupts)}`);
  return reviews[0] as Interrupt;
}
