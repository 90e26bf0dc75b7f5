import type { Middleware } from '@replan/core';

/** One row of the audit trail: who called which tool, with what, and how it ended. */
export interface AuditRow {
  readonly sessionId: string;
  readonly agent: string;
  readonly tool: string;
  readonly callId: string;
  readonly args: unknown;
  readonly ok: boolean;
  readonly ms: number;
}

/**
 * An audit row per tool call, written to `write` (a table of yours) once the call ended. A call
 * whose result is stored is never run again on resume, so it is never audited twice; a call that
 * stops the run for a human (an interrupt) is audited when it runs after the answer.
 */
export function auditToolCalls(write: (row: AuditRow) => void | Promise<void>): Middleware {
  return {
    name: 'auditToolCalls',
    async wrapToolCall(next, call, ctx) {
      const started = Date.now();
      const outcome = await next(call);
      await write({
        sessionId: ctx.sessionId,
        agent: ctx.agentName,
        tool: call.name,
        callId: call.id,
        args: ctx.args,
        ok: !outcome.isError,
        ms: Date.now() - started,
      });
      return outcome;
    },
  };
}
