import { BudgetExceededError, userMessage, type ModelRequest, type ToolSpec } from '@replan/core';
import type { RunBudget } from '@replan/core/agent-kit';

/** A model call refused for eating into the reserve kept for the answer (not a limit reached). */
export const isReserveStop = (error: unknown): error is BudgetExceededError =>
  error instanceof BudgetExceededError && error.reserve !== undefined;

/** True when the replanner must answer now, from the steps done (`limits.onExhausted: 'answer'`, under the reserve). */
export const mustAnswer = (budget: RunBudget): boolean => budget.answers && budget.underReserve();

/**
 * The replanner's request when the budget is used up: its usual messages, then the instruction to
 * answer from what is done naming the steps not run (`notRunText`, quoted by the caller); only the
 * `respond` tool, forced; output capped so the answer ends within `maxTokens` and `maxCost` (priced
 * at `modelId`'s rates). Spends the reserve:
 * `budget.beginAnswer()` is called here.
 */
export function budgetAnswerRequest(
  budget: RunBudget,
  request: ModelRequest,
  respond: ToolSpec,
  notRunText: string,
  modelId: string,
): ModelRequest {
  budget.beginAnswer();
  const messages = [
    ...request.messages,
    userMessage(
      `The run's budget is used up: what is left is kept for this answer, and no more steps will run. Do not plan. Call "${respond.name}" now with the best answer the completed steps support, and say plainly what is missing because these steps were not run:\n${notRunText}`,
    ),
  ];
  const answer: ModelRequest = { ...request, messages, tools: [respond], toolChoice: { name: respond.name } };
  const cap = budget.answerOutputCap(answer, modelId);
  if (cap === undefined) return answer;
  const own = request.settings?.maxTokens;
  return { ...answer, settings: { ...request.settings, maxTokens: own === undefined ? cap : Math.min(own, cap) } };
}
