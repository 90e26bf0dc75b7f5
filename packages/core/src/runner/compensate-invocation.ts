import { COMPENSATION_END, COMPENSATION_START } from '../compensation/compensation-ids.js';
import { compensableCalls } from '../compensation/compensable-calls.js';
import { type ToolFinder, toolFinderOf } from '../compensation/agent-tools.js';
import { runCompensations } from '../compensation/run-compensations.js';
import { CompensationError } from '../errors/compensation-error.js';
import type { AgentEvent } from '../events/agent-event.js';
import type { CompensationReport } from '../errors/compensation-error.js';
import type { InvocationContext } from '../invocation/invocation-context.js';
import type { Agent } from '../invocation/agent.js';
import type { RunFence } from '../sessions/run-lease.js';
import type { RunEnd } from './run-result-builder.js';
import { runSignal } from './run-signal.js';

/** What closing an invocation needs from its drive: the root context, where it starts, and storing an event durably. */
export interface ClosingHost {
  readonly ctx: InvocationContext;
  /** The run's root agent: the tree whose tools the stored calls name. */
  readonly agent: Agent;
  /** Index of the invocation's first event in the live session. */
  readonly start: number;
  readonly store: (event: AgentEvent) => Promise<void>;
  readonly fence?: RunFence | undefined;
}

/** `ctx.compensate` of a run of `root`: the invocation's events in scope, undone with the run's own signal. */
export function compensateScope(root: Agent) {
  let findTool: ToolFinder | undefined; // walked on first use: most runs never compensate
  return (ctx: InvocationContext, inScope: (event: AgentEvent) => boolean) => {
    findTool ??= toolFinderOf(root);
    const { services } = ctx;
    const events = services.session.events.filter((e) => e.invocationId === services.invocationId);
    return runCompensations(ctx, compensableCalls(events, findTool, inScope), services.signal);
  };
}

/** `meta.kind` of the event that closes an invocation `runner.cancel` ended without compensation. */
export const CANCELLED = 'cancelled';

/** Whether the invocation (from `start`) opened a compensation: a resume finishes it instead of running the agent. */
export const compensationOpened = (events: readonly AgentEvent[], start: number): boolean =>
  events.slice(start).some((e) => e.meta?.kind === COMPENSATION_START);

/** Closes the invocation for good as cancelled (`runner.cancel` without `compensate`): `resume` then runs nothing. */
export async function closeCancelled(host: ClosingHost): Promise<RunEnd> {
  await host.store(host.ctx.event({ actions: { invocationEnd: { status: 'aborted' } }, meta: { kind: CANCELLED } }));
  return { status: 'aborted' };
}

/**
 * Undoes the invocation's finished compensable calls and closes it. The start marker is stored
 * first (a crash after it is finished by `resume`); the calls in scope are those stored before it,
 * so a resumed compensation undoes the same calls, and each compensation already stored is not run
 * again. Ends `aborted` with the report, or `failed` with the `CompensationError` (closed for good
 * as well: a failed compensation is never retried silently).
 */
export async function compensateInvocation(host: ClosingHost): Promise<RunEnd> {
  const { ctx } = host;
  const events = ctx.services.session.events;
  let opened = events.findIndex((e, i) => i >= host.start && e.meta?.kind === COMPENSATION_START);
  if (opened < 0) {
    opened = events.length;
    await host.store(ctx.event({ meta: { kind: COMPENSATION_START } }));
  }
  const plan = compensableCalls(events.slice(host.start, opened), toolFinderOf(host.agent));
  // The run's own signal fired already (that is why it compensates): compensations stop only with the lease.
  const { signal, dispose } = runSignal(undefined, undefined, host.fence);
  try {
    const running = runCompensations(ctx, plan, signal);
    let report: CompensationReport;
    for (;;) {
      const next = await running.next();
      if (next.done) {
        report = next.value;
        break;
      }
      await host.store(next.value);
    }
    await host.store(
      ctx.event({ actions: { invocationEnd: { status: 'aborted' } }, meta: { kind: COMPENSATION_END, compensation: report } }),
    );
    return { status: 'aborted', compensation: report };
  } catch (error) {
    if (!(error instanceof CompensationError)) throw error;
    const compensation: CompensationReport = { undone: error.undone, skipped: error.skipped, notUndone: error.notUndone };
    await host.store(
      ctx.event({
        error: { name: error.name, message: error.message },
        actions: { invocationEnd: { status: 'failed' } },
        meta: { kind: 'run-error', compensation },
      }),
    );
    return { status: 'failed', error, compensation };
  } finally {
    dispose();
  }
}
