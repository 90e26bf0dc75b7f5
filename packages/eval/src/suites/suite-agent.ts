import { type Agent, type ChatModel, type Message, ReActAgent, type Tool, toolCallsOf } from '@replan/core';
import { callTools, reply, ScriptedModel } from '@replan/core/testing';
import { createPlanExecuteAgent } from '@replan/planexecute';
import { scriptPlanExecute } from '@replan/planexecute/testing';
import { oracleSteps, oracleTurns, type TaskOracle } from './oracle.js';

/** The agents a suite compares: a ReAct loop, a linear plan–execute agent, and plan–execute with graph plans. */
export type SuiteAgentKind = 'react' | 'plan-execute' | 'graph';
export const SUITE_AGENT_KINDS: readonly SuiteAgentKind[] = ['react', 'plan-execute', 'graph'];

/** What a suite gives an agent factory for one run. */
export interface SuiteAgentContext {
  readonly model: ChatModel;
  readonly tools: readonly Tool[];
  readonly policy: string;
}

/** Your own agent for a suite: built per run from the run's model and tools. */
export type SuiteAgentFactory = (ctx: SuiteAgentContext) => Agent;

/** Most model calls of a ReAct run or of one plan step. */
const MAX_ITERATIONS = 20;

/** The agent of a kind over one run's model and tools. */
export function suiteAgent(kind: SuiteAgentKind, { model, tools, policy }: SuiteAgentContext): Agent {
  if (kind === 'react') return new ReActAgent({ name: 'react', model, tools, instruction: policy, maxIterations: MAX_ITERATIONS });
  return createPlanExecuteAgent({
    model,
    tools,
    stepMaxIterations: MAX_ITERATIONS,
    ...(kind === 'graph' ? { mode: 'graph' as const } : {}),
  });
}

/** A scripted ReAct model that plays the oracle: its turns in order (by the assistant turns the request shows), then the answer. */
function reactOracle(oracle: TaskOracle): ChatModel {
  const turns = oracleTurns(oracle);
  return new ScriptedModel({
    id: 'oracle-react',
    respond: (request) => {
      const done = request.messages.filter((m: Message) => m.role === 'assistant' && toolCallsOf(m).length > 0).length;
      const turn = turns[done];
      return turn ? callTools(...turn) : reply(oracle.answer);
    },
  });
}

/** The scripted model that solves a task as the given agent kind. */
export function oracleModel(kind: SuiteAgentKind, oracle: TaskOracle): ChatModel {
  if (kind === 'react') return reactOracle(oracle);
  const steps = oracleSteps(oracle);
  if (kind === 'graph') {
    const graph = (list: typeof steps) => ({
      steps: list.map((s) => ({ id: s.id, task: s.task, dependsOn: [...(s.dependsOn ?? [])] })),
    });
    return scriptPlanExecute({
      plan: graph(oracle.plan),
      steps: Object.fromEntries(steps.map((s) => [s.id, { toolCalls: s.calls ?? [], text: s.result }])),
      ...(oracle.replan ? { replans: [graph(oracle.replan)] } : {}),
      answer: oracle.answer,
    }).model;
  }
  // Linear: after each step the replanner writes the steps still to run (the revision after a
  // tool error included), then answers once every step ran.
  const remaining = steps.slice(1).map((_, k) => ({ steps: steps.slice(k + 1).map((s) => s.task) }));
  return scriptPlanExecute({
    plan: { steps: oracle.plan.map((s) => s.task) },
    steps: Object.fromEntries(steps.map((s) => [s.task, { toolCalls: s.calls ?? [], text: s.result }])),
    replans: remaining,
    answer: oracle.answer,
  }).model;
}
