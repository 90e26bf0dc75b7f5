import { systemMessage, userMessage, type AgentEvent, type InvocationContext, type Message, type ModelRequest } from '@replan/core';
import { quotePreamble, quotedBlock, quoteValue } from '@replan/core/agent-kit';
import type { z } from 'zod';
import { decisionCall, parseWith, type Parsed } from '../base/decision-call.js';
import { tagged } from '../base/event-tags.js';
import type { PlanExecuteKeys } from '../base/session-keys.js';
import { PlanningError } from '../base/planning-error.js';
import type { PlanMode } from '../modes/plan-mode.js';
import type { PlanRecall } from './past-plans.js';
import type { ResolvedPlanMemory } from '../base/plan-memory-options.js';

/** What reuse needs of the planner it stands in for. */
export interface ReusingPlanner {
  readonly planSchema: z.ZodType;
  readonly mode: PlanMode;
  readonly keys: PlanExecuteKeys;
  readonly repairHint: string;
  /** The planner's request without messages (the forced `plan` tool or the JSON response format). */
  readonly planRequest: Omit<ModelRequest, 'messages'>;
  parseAnswer(message: Message): Parsed<unknown>;
  checkOption(ctx: InvocationContext): { check?: (plan: unknown, attempt: number) => Promise<string | undefined> };
}

/** The instruction of the adapting call. */
const ADAPT_INSTRUCTION =
  'A plan that worked for a similar objective is quoted below. Adapt its steps to the new objective (change names, values and anything that differs; keep what still applies) and return the adapted plan. Do not add steps that the new objective does not need.';

/**
 * The plan event of a reused plan, or `undefined` when the stored plan cannot be used here (it no
 * longer fits the schema or the mode, the adapting call failed, or `checkPlan` refused it): the
 * planner then plans as usual. With `adaptModel`, one call (no repairs) adapts the steps; without,
 * the plan runs as written. `meta.reusedPlan` names the memory it came from.
 */
export async function* reusedPlanEvent(
  planner: ReusingPlanner,
  ctx: InvocationContext,
  recall: PlanRecall,
  memory: ResolvedPlanMemory,
  userInput: readonly Message[],
): AsyncGenerator<AgentEvent, AgentEvent | undefined, undefined> {
  const stored = recall.recalled.find((p) => p.id === recall.reuse);
  if (!stored) return undefined;
  const valid = parseWith(planner.planSchema, stored.metadata.plan, 'the stored plan');
  if (!valid.ok || planner.mode.validate(valid.value) !== undefined) return undefined;
  const adaptModel = memory.reusePlans?.adaptModel;
  let plan: unknown = valid.value;
  let fields: { message?: Message; usage?: NonNullable<AgentEvent['usage']> } = {};
  const check = planner.checkOption(ctx).check;
  if (adaptModel) {
    try {
      const { value, response } = yield* decisionCall<unknown>(ctx, {
        model: adaptModel,
        request: { ...planner.planRequest, messages: adaptMessages(recall.query, stored.objective, valid.value) },
        parse: (m) => planner.parseAnswer(m),
        ...(check ? { check } : {}),
        repairHint: planner.repairHint,
        maxRepairs: 0, // no repair turn: a faulty adaptation falls back to the planner, whose repairs are its own
      });
      plan = value;
      fields = { message: response.message, ...(response.usage ? { usage: response.usage } : {}) };
    } catch (error) {
      if (error instanceof PlanningError) return undefined;
      throw error;
    }
  } else if (check && (await check(plan, 1)) !== undefined) return undefined;
  const meta = {
    reusedPlan: {
      memoryId: stored.id,
      similarity: recall.similarity ?? null,
      objective: stored.objective,
      adapted: !!adaptModel,
      ...(stored.sessionId ? { sessionId: stored.sessionId } : {}),
    },
  };
  const { keys } = planner;
  const event = ctx.event({
    ...fields,
    actions: { stateDelta: { [keys.UserInput]: userInput, [keys.Plan]: plan, [keys.ExecutedSteps]: [] } },
  });
  return tagged(event, 'plan', meta);
}

/** The adapting call's messages: the instruction, the stored objective and plan quoted as data, the new objective. */
function adaptMessages(objective: string, storedObjective: string, plan: unknown): Message[] {
  const quoted = quotedBlock(
    [`objective: ${quoteValue(storedObjective)}`, `plan: ${quoteValue(JSON.stringify(plan))}`],
    quotePreamble('The earlier objective and its plan'),
  );
  return [systemMessage(ADAPT_INSTRUCTION), userMessage(`${quoted}\n\nThe new objective:\n${objective}`)];
}
