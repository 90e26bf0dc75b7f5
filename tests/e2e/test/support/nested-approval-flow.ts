import { expect } from 'vitest';
import { toolResultsOf } from '@replan/core';
import { childSessionId } from '@replan/core/agent-kit';
import { runChild, type ChildConfig } from './child-process.js';
import { readAttempts, readEffects } from './session-view.js';
import { withTarget, type StoreTarget, type TargetFactory } from './store-target.js';

/** The interrupt of the `nested` scenario: the researcher's publish call, inside the root's research call. */
export const NESTED_APPROVAL_ID = 'o1/a1:approval';
const ANSWER = 'outer saw: inner: published Tides';

/** Starts the `nested` scenario in a first process: it must stop on the inner agent's approval. */
async function interruptedNested(target: StoreTarget, sessionId: string) {
  const base = { store: target.config, sessionId, scenario: 'nested', workDir: target.workDir } satisfies Partial<ChildConfig>;
  const first = await runChild({ ...base, mode: 'run', processLabel: 'asker' });
  expect(first.result).toMatchObject({
    status: 'interrupted',
    interrupts: [
      {
        id: NESTED_APPROVAL_ID,
        reason: 'approval',
        toolName: 'publish',
        path: 'root/research/researcher',
        payload: { tool: 'publish', args: { title: 'Tides' } },
      },
    ],
  });
  // A restore in another process (no answer) attributes the approval to the inner agent and runs nothing.
  const idle = await runChild({ ...base, mode: 'resume', processLabel: 'idle' });
  expect(idle.result).toMatchObject({
    status: 'interrupted',
    modelCalls: 0,
    interrupts: [{ id: NESTED_APPROVAL_ID, path: 'root/research/researcher' }],
  });
  return base;
}

const attemptsOf = async (target: StoreTarget, process?: string) =>
  (await readAttempts(target.workDir)).filter((a) => !process || a.process === process).map((a) => a.role ?? a.tool);

/** The child session of the research call, read by the parent through its own store. */
async function childOf(target: StoreTarget, sessionId: string) {
  const parent = await target.session(sessionId);
  const invocationId = parent?.events[0]?.invocationId as string;
  return { parent, child: await target.session(childSessionId(sessionId, invocationId, 'o1')) };
}

/** The side effects made in the research call's child session (publish keys them by that session). */
const childEffects = async (target: StoreTarget, sessionId: string) =>
  readEffects(target.workDir, (await childOf(target, sessionId)).child?.id as string);

/**
 * An approval inside a nested agent, answered in another process: the inner tool runs once, the
 * inner agent then the outer call complete once, no finished model call is repeated.
 */
export async function nestedApprovalAcrossProcesses(newTarget: TargetFactory): Promise<void> {
  return withTarget(newTarget, async (target) => {
    const base = await interruptedNested(target, 'nested');
    expect(await attemptsOf(target)).toEqual(['root', 'researcher']);

    const answer = await runChild({ ...base, mode: 'resume', values: { [NESTED_APPROVAL_ID]: true }, processLabel: 'approver' });
    expect(answer.result).toMatchObject({ status: 'completed', output: ANSWER, modelCalls: 2 });
    expect(await attemptsOf(target, 'approver')).toEqual(['publish', 'researcher', 'root']);
    expect(await childEffects(target, 'nested')).toEqual(['a1']);

    const { parent, child } = await childOf(target, 'nested');
    expect(child?.events.at(-1)?.actions?.invocationEnd).toEqual({ status: 'completed', output: 'inner: published Tides' });
    expect(parent?.events.flatMap((e) => toolResultsOf(e.message))).toEqual([
      expect.objectContaining({ toolCallId: 'o1', output: 'inner: published Tides' }),
    ]);
    // The outer log holds no inner event: the child session stores them.
    expect(parent?.events.some((e) => e.author === 'researcher')).toBe(false);

    const again = await runChild({ ...base, mode: 'resume', processLabel: 'late' });
    expect(again.result).toMatchObject({ status: 'completed', output: ANSWER, modelCalls: 0 });
    expect(await attemptsOf(target, 'late')).toEqual([]);
  });
}

/**
 * The approver is killed after the child session finished but before the outer tool result is
 * stored. Another process resumes: it finds the child finished and uses its stored answer —
 * the inner tool and the inner model are not called again.
 */
export async function nestedKilledBeforeOuterResult(newTarget: TargetFactory): Promise<void> {
  // Where to kill: a run without a kill, in a separate target, lists the approver's markers.
  const killAt = await withTarget(newTarget, async (probe) => {
    const base = await interruptedNested(probe, 'probe');
    const run = await runChild({ ...base, mode: 'resume', values: { [NESTED_APPROVAL_ID]: true }, processLabel: 'probe' });
    const n = run.markers.indexOf('store:append:after researcher:invocation-end') + 1;
    expect(n).toBeGreaterThan(0);
    expect(run.markers.slice(n)).toContain('store:append:before root:tool-result o1');
    return n;
  });
  return withTarget(newTarget, async (target) => {
    const base = await interruptedNested(target, 'killed');
    const killed = await runChild({ ...base, mode: 'resume', values: { [NESTED_APPROVAL_ID]: true }, processLabel: 'approver', killAt });
    expect(killed).toMatchObject({ killed: true, killedAfter: 'store:append:after researcher:invocation-end' });
    const before = await childOf(target, 'killed');
    expect(before.child?.events.at(-1)?.actions?.invocationEnd?.status).toBe('completed');
    expect(before.parent?.events.flatMap((e) => toolResultsOf(e.message))).toEqual([]);

    const recovered = await runChild({ ...base, mode: 'resume', processLabel: 'recover' });
    expect(recovered.result).toMatchObject({ status: 'completed', output: ANSWER, modelCalls: 1 });
    expect(await attemptsOf(target, 'recover')).toEqual(['root']);
    expect((await attemptsOf(target)).filter((a) => a === 'publish' || a === 'researcher')).toEqual([
      'researcher',
      'publish',
      'researcher',
    ]);
    expect(await childEffects(target, 'killed')).toEqual(['a1']);
  });
}
