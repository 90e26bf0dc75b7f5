import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'vitest';
import type { AgentEvent } from '@replan/core';
import { startLeaseChild } from './lease-child.js';
import { type TargetFactory, withTarget } from './store-target.js';

/**
 * Short leases keep the tests fast; the waits below are multiples of it. Long enough that a
 * heartbeat (every third) is not missed on a loaded CI machine.
 */
const LEASE_MS = 800;

const texts = (e: AgentEvent) =>
  (e.message?.content ?? []).map((b) => (b.type === 'text' ? b.text : b.type === 'tool_result' ? JSON.stringify(b.output) : '')).join(' ');

/**
 * Process A runs a session whose tool call outlasts several leases (its heartbeat keeps the
 * lease); process B's `Runner.resume` meanwhile is refused with `SessionBusyError` naming A,
 * having written nothing. A then completes.
 */
export async function resumeRefusedDuringLongToolCall(newTarget: TargetFactory): Promise<void> {
  await withTarget(newTarget, async (t) => {
    const goFile = join(t.workDir, 'go-a');
    const a = startLeaseChild({ store: t.config, sessionId: 's', mode: 'run', label: 'A', leaseMs: LEASE_MS, goFile });
    await a.marker('TOOL A');
    await sleep(LEASE_MS * 2.5); // well past the first expiry: only A's heartbeat keeps the lease
    const before = (await t.session('s'))!;
    const b = await startLeaseChild({ store: t.config, sessionId: 's', mode: 'resume', label: 'B', leaseMs: LEASE_MS }).done;
    expect(b.result.status).toBe('rejected');
    expect(b.result.error).toMatchObject({ name: 'SessionBusyError', owner: 'owner-A' });
    expect(b.result.error?.message).toContain('owner-A');
    expect(b.result.error?.expiresAt).toBeGreaterThan(Date.now() - LEASE_MS);
    expect(b.markers.filter((m) => m.startsWith('APPENDED') || m.startsWith('TOOL') || m.startsWith('LEASED'))).toEqual([]);
    const after = (await t.session('s'))!;
    expect(after.version).toBe(before.version);
    expect(after.events.map((e) => e.id)).toEqual(before.events.map((e) => e.id));

    await writeFile(goFile, '');
    const done = await a.done;
    expect(done.result).toMatchObject({ status: 'completed', output: 'finished (A)' });
    expect(done.markers.filter((m) => m.startsWith('TOOL'))).toEqual(['TOOL A']);
    expect(done.markers.filter((m) => m.startsWith('RENEWED')).length).toBeGreaterThanOrEqual(3);
    expect(done.markers.some((m) => m.startsWith('REFUSED'))).toBe(false);
  });
}

/**
 * Process A runs a session under a long lease (a minute) and is killed (SIGKILL) inside its tool
 * call; process B, on the same machine, resumes at once and completes: A's process is gone, so its
 * lease is taken over without waiting for it to expire. B runs the unfinished tool call again.
 */
export async function resumeAtOnceAfterKill(newTarget: TargetFactory): Promise<void> {
  await withTarget(newTarget, async (t) => {
    const longLease = 60_000;
    const a = startLeaseChild({
      store: t.config,
      sessionId: 's',
      mode: 'run',
      label: 'A',
      leaseMs: longLease,
      goFile: join(t.workDir, 'never'),
    });
    await a.marker('TOOL A');
    a.process.kill('SIGKILL');
    await a.done.catch(() => undefined);
    const leasedA = Number(/token=(\d+)/.exec(a.markers.find((m) => m.startsWith('LEASED')) ?? '')?.[1]);

    const b = await startLeaseChild({ store: t.config, sessionId: 's', mode: 'resume', label: 'B', leaseMs: longLease }).done;
    expect(b.result).toMatchObject({ status: 'completed', output: 'finished (B)' });
    const leasedB = Number(/token=(\d+)/.exec(b.markers.find((m) => m.startsWith('LEASED')) ?? '')?.[1]);
    expect(leasedB).toBe(leasedA + 1);
    const log = (await t.session('s'))!;
    expect(log.events.map(texts).join('\n')).toContain('done by B');
  });
}

/**
 * Process A is paused (SIGSTOP) during its tool call, past its lease; process B resumes the
 * session (a takeover: a higher token) and completes it, running the unfinished tool call again;
 * then A is continued (SIGCONT). A's run must end `failed` with `LeaseLostError` without a single
 * append landing, and the log must read as one clean run: no duplicate, no interleaved step.
 *
 * `fakeHeartbeat`: A believes its lease lasts a minute while the store granted `LEASE_MS`, so A's
 * own expiry check never fires — only the store's token check stands between the zombie and the log.
 */
export async function zombieFencedAfterTakeover(newTarget: TargetFactory, options: { fakeHeartbeat: boolean }): Promise<void> {
  await withTarget(newTarget, async (t) => {
    const goFile = join(t.workDir, 'go-a');
    const a = startLeaseChild({
      store: t.config,
      sessionId: 's',
      mode: 'run',
      label: 'A',
      leaseMs: LEASE_MS,
      goFile,
      fakeHeartbeat: options.fakeHeartbeat,
    });
    await a.marker('TOOL A');
    // Pause A where it holds no store lock or transaction: right after a renewal (or, with the
    // fake heartbeat, once its file-store writer has let go of the session lock).
    if (options.fakeHeartbeat) {
      // No renewals and no appends while the tool waits: once A's writer let go of the session
      // lock (file store), A takes it no more.
      await sleep(100);
      if (t.config.kind === 'file') {
        const lock = join(t.config.dir, 'sessions', 'e2e', 'u1', 's.jsonl.lock');
        while (existsSync(lock)) await sleep(5);
      }
    } else {
      const seen = a.markers.length;
      while (!a.markers.slice(seen).includes('RENEWED')) await sleep(2);
    }
    a.process.kill('SIGSTOP');
    const stoppedAt = a.markers.length;
    const leasedA = Number(/token=(\d+)/.exec(a.markers.find((m) => m.startsWith('LEASED')) ?? '')?.[1]);
    await sleep(LEASE_MS * 2.5); // A's lease expires in the store

    const b = await startLeaseChild({ store: t.config, sessionId: 's', mode: 'resume', label: 'B', leaseMs: LEASE_MS }).done;
    expect(b.result).toMatchObject({ status: 'completed', output: 'finished (B)' });
    const leasedB = Number(/token=(\d+)/.exec(b.markers.find((m) => m.startsWith('LEASED')) ?? '')?.[1]);
    expect(leasedB).toBeGreaterThan(leasedA);
    const settled = (await t.session('s'))!;

    await writeFile(goFile, ''); // A's tool call can finish as soon as A runs again
    a.process.kill('SIGCONT');
    const zombie = await a.done;
    expect(zombie.result.status).toBe('failed');
    expect(zombie.result.error).toMatchObject({ name: 'LeaseLostError', lost: true });
    const afterWake = zombie.markers.slice(stoppedAt);
    expect(afterWake.filter((m) => m.startsWith('APPENDED'))).toEqual([]);
    // With only the store to stop it, the zombie did try to append, and the store refused.
    if (options.fakeHeartbeat) expect(afterWake).toContain('REFUSED LeaseLostError');

    const log = (await t.session('s'))!;
    expect(log.version).toBe(settled.version);
    expect(log.events.map((e) => e.id)).toEqual(settled.events.map((e) => e.id));
    expect(log.version).toBe(log.events.length);
    expect(new Set(log.events.map((e) => e.id)).size).toBe(log.events.length);
    expect(new Set(log.events.map((e) => e.invocationId)).size).toBe(1);
    // One clean run: input, A's tool call, B's resume marker, B's tool result, B's answer, the end.
    expect(log.events.map((e) => e.meta?.kind ?? e.message?.role ?? Object.keys(e.actions ?? {}).join())).toEqual([
      'user',
      'assistant',
      'resume',
      'tool',
      'assistant',
      'invocation-end',
    ]);
    const all = log.events.map(texts).join('\n');
    expect(all).toContain('done by B');
    expect(all).not.toContain('done by A');
    expect(all).not.toContain('finished (A)');
  });
}
