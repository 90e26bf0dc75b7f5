import { z } from 'zod';
import {
  type GuardrailTrip,
  SessionCorruptError,
  type Interrupt,
  type RunResult,
  type RunStatus,
  type SessionTotals,
  type Usage,
  type UsageBreakdown,
} from '@replan/core';

/** What a job row's `result` column holds: a run's outcome without its events. */
const JOB_RESULT_SCHEMA_VERSION = 1;

const usage = z.object({
  inputTokens: z.number(),
  outputTokens: z.number(),
  reasoningTokens: z.number().optional(),
  cachedTokens: z.number().optional(),
  cacheWriteTokens: z.number().optional(),
});
const bucket = z.object({ usage, modelCalls: z.number(), cost: z.number(), latencyMs: z.number() });

const storedResult = z.object({
  schemaVersion: z.literal(JOB_RESULT_SCHEMA_VERSION),
  status: z.enum(['completed', 'interrupted', 'max_iterations', 'aborted', 'failed', 'budget_exceeded', 'blocked']),
  output: z.string().optional(),
  structured: z.unknown().optional(),
  invocationId: z.string(),
  interrupts: z.array(
    z.object({
      id: z.string(),
      reason: z.string(),
      payload: z.unknown(),
      toolCallId: z.string().optional(),
      toolName: z.string().optional(),
    }),
  ),
  usage,
  modelCalls: z.number(),
  cost: z.number(),
  breakdown: z.object({ byAgent: z.record(z.string(), bucket), byStep: z.record(z.string(), bucket) }),
  // cost fields came later: a result stored before them reads as unpriced
  session: z
    .object({ usage, modelCalls: z.number(), cost: z.number().optional(), unpricedModelCalls: z.number().optional() })
    .transform((s) => ({ ...s, cost: s.cost ?? 0, unpricedModelCalls: s.unpricedModelCalls ?? s.modelCalls })),
  error: z.object({ name: z.string(), message: z.string() }).optional(),
  guardrail: z.object({ name: z.string(), stage: z.enum(['input', 'output']), reason: z.string().optional() }).optional(),
});

type StoredResult = z.infer<typeof storedResult>;

/** The job status a run's outcome leaves: final outcomes (a guardrail's block too) complete the job, resumable stops do not. */
export function jobStatusOf(status: RunStatus): 'completed' | 'interrupted' | 'failed' {
  if (status === 'completed' || status === 'max_iterations' || status === 'blocked') return 'completed';
  return status === 'interrupted' ? 'interrupted' : 'failed';
}

/** The JSON kept in the job row (an error keeps its name and message; its stack stays in the worker's log). */
export function encodeJobResult(result: RunResult): string {
  const stored: StoredResult = {
    schemaVersion: JOB_RESULT_SCHEMA_VERSION,
    status: result.status,
    invocationId: result.invocationId,
    interrupts: result.interrupts.map((i) => ({ ...i })),
    usage: { ...result.usage },
    modelCalls: result.modelCalls,
    cost: result.cost,
    breakdown: result.breakdown,
    session: result.session,
  };
  if (result.output !== undefined) stored.output = result.output;
  if (result.structured !== undefined) stored.structured = result.structured;
  if (result.error) stored.error = { name: result.error.name, message: result.error.message };
  if (result.guardrail) stored.guardrail = { ...result.guardrail };
  return JSON.stringify(stored);
}

/** A failure that happened outside any run (e.g. a job given up after too many attempts). */
export function failureResult(invocationId: string, error: Error): string {
  return encodeJobResult({
    status: 'failed',
    output: undefined,
    sessionId: '',
    invocationId,
    interrupts: [],
    usage: { inputTokens: 0, outputTokens: 0 },
    modelCalls: 0,
    cost: 0,
    breakdown: { byAgent: {}, byStep: {} },
    session: { usage: { inputTokens: 0, outputTokens: 0 }, modelCalls: 0, cost: 0, unpricedModelCalls: 0 },
    error,
  });
}

/** Rebuilds the `RunResult` from a job row, validated; a foreign or damaged value is `SessionCorruptError`. */
export function decodeJobResult(sessionId: string, value: unknown): RunResult {
  const parsed = storedResult.safeParse(value);
  if (!parsed.success)
    throw new SessionCorruptError(
      sessionId,
      `its run-queue result is not one this version reads (${parsed.error.issues[0]?.message ?? 'invalid'})`,
    );
  const r = parsed.data;
  const result: { -readonly [K in keyof RunResult]: RunResult[K] } = {
    status: r.status,
    output: r.output,
    sessionId,
    invocationId: r.invocationId,
    // Parsed from JSON, which has no undefined: an optional key is absent, never undefined.
    interrupts: r.interrupts as Interrupt[],
    usage: r.usage as Usage,
    modelCalls: r.modelCalls,
    cost: r.cost,
    breakdown: r.breakdown as UsageBreakdown,
    session: r.session as SessionTotals,
  };
  if (r.structured !== undefined) result.structured = r.structured;
  if (r.error) {
    const error = new Error(r.error.message);
    error.name = r.error.name;
    result.error = error;
  }
  if (r.guardrail) result.guardrail = r.guardrail as GuardrailTrip;
  return result;
}
