import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InMemorySessionStore, Runner, tool } from '@replan/core';
import { callTools, ScriptedModel } from '@replan/core/testing';
import { createPlanExecuteAgent } from '@replan/planexecute';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineEvalSet, readEvalCaseFile, readRecordingFile, runEval, sessionToEvalCase, writeEvalCaseFiles } from '@replan/eval';
import { researchRunner } from './support/agents.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'replan-eval-case-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function storedSession(runner: Runner, input: Parameters<Runner['run']>[0]['input'], sessionId = 's1') {
  await runner.run({ userId: 'u', sessionId, input }).result();
  const session = await runner.sessionStore.get({ appName: runner.appName, userId: 'u', id: sessionId });
  if (!session) throw new Error('not stored');
  return session;
}

describe('sessionToEvalCase', () => {
  it('takes the first input, the tool calls with args (no ids), the answer and the status; the recording is every event', async () => {
    const session = await storedSession(researchRunner({ cities: () => ['Lyon', 'Oslo'] }), 'Compare Lyon and Oslo');
    const { evalCase, recording } = sessionToEvalCase(session);
    expect(evalCase).toEqual({
      name: 'session-s1',
      input: 'Compare Lyon and Oslo',
      expect: {
        trajectory: {
          mode: 'exact',
          calls: [
            { name: 'lookup', args: { city: 'Lyon', units: 'metric' } },
            { name: 'lookup', args: { city: 'Oslo', units: 'metric' } },
          ],
        },
        answer: 'Answer to Compare Lyon and Oslo',
        status: 'completed',
      },
    });
    expect(recording).toEqual(session.events);
    expect(() => defineEvalSet({ name: 'from prod', cases: [evalCase] })).not.toThrow();
  });

  it('the case passes against the same agent run again (new tool-call ids), and fails when the agent changed', async () => {
    const session = await storedSession(researchRunner({ cities: () => ['Lyon', 'Oslo'] }), 'Compare Lyon and Oslo');
    const set = defineEvalSet({ name: 'regression', cases: [sessionToEvalCase(session, { name: 'compare' }).evalCase] });
    expect((await runEval({ set, runner: researchRunner({ cities: () => ['Lyon', 'Oslo'] }) })).pass).toBe(true);
    const changed = await runEval({ set, runner: researchRunner({ cities: () => ['Oslo', 'Lyon'] }) });
    expect(changed.pass).toBe(false);
    expect(changed.cases[0]?.criteria.find((c) => c.criterion === 'trajectory')?.reason).toContain(
      'call #1: lookup args city: expected "Lyon", got "Oslo"',
    );
  });

  it('keeps a non-text input as a message, and leaves the status out of an invocation that did not end (interrupted)', async () => {
    const send = tool({
      name: 'send',
      description: 'Sends.',
      parameters: z.object({ to: z.string() }),
      needsApproval: true,
      execute: () => 'sent',
    });
    const model = new ScriptedModel({
      respond: (request) => {
        if (typeof request.toolChoice === 'object') return callTools({ name: 'plan', args: { steps: ['Send it'] } });
        return callTools({ name: 'send', args: { to: 'team' } });
      },
    });
    const runner = new Runner({
      agent: createPlanExecuteAgent({ model, tools: [send] }),
      appName: 'approvals',
      sessionStore: new InMemorySessionStore(),
    });
    const input = {
      role: 'user' as const,
      content: [
        { type: 'text' as const, text: 'Send the report' },
        { type: 'reasoning' as const, reasoning: 'note' },
      ],
    };
    const session = await storedSession(runner, input);
    const { evalCase } = sessionToEvalCase(session);
    expect(evalCase.input).toEqual(input);
    expect(evalCase.expect).toEqual({ trajectory: { mode: 'exact', calls: [{ name: 'send', args: { to: 'team' } }] } });
  });

  it('refuses a session without user input', () => {
    expect(() => sessionToEvalCase({ id: 'empty', events: [] })).toThrow(expect.objectContaining({ name: 'EvalInputError', kind: 'set' }));
    expect(() => sessionToEvalCase({ id: 'empty', events: [] })).toThrow('Session "empty" has no user input to turn into an eval case.');
  });
});

describe('case and recording files', () => {
  it('round-trip through writeEvalCaseFiles / readEvalCaseFile / readRecordingFile', async () => {
    const session = await storedSession(researchRunner(), 'Lyon?');
    const converted = sessionToEvalCase(session, { name: 'lyon: the "why" / case' });
    const { casePath, recordingPath } = await writeEvalCaseFiles(dir, converted, session.id);
    expect(casePath).toBe(join(dir, 'lyon-the-why-case.case.json'));
    expect(await readEvalCaseFile(casePath)).toEqual(converted.evalCase);
    expect(await readRecordingFile(recordingPath)).toEqual(JSON.parse(JSON.stringify(session.events)));
  });

  it('refuses files that are not ones, saying how to get good ones', async () => {
    const path = (name: string) => join(dir, name);
    await writeFile(path('broken.json'), '{ not json');
    await writeFile(
      path('future.json'),
      JSON.stringify({ schemaVersion: 2, kind: 'replan-eval-case', case: { name: 'a', input: 'x', expect: {} } }),
    );
    await writeFile(
      path('events.json'),
      JSON.stringify({ schemaVersion: 1, kind: 'replan-recording', sessionId: 's', events: [{ id: 1 }] }),
    );
    await expect(readEvalCaseFile(path('missing.json'))).rejects.toThrow(/Cannot read the eval case file/);
    await expect(readEvalCaseFile(path('broken.json'))).rejects.toThrow(/is not JSON .*replan eval --from-session/);
    await expect(readEvalCaseFile(path('future.json'))).rejects.toMatchObject({ name: 'EvalInputError', kind: 'file' });
    await expect(readEvalCaseFile(path('future.json'))).rejects.toThrow(/schemaVersion/);
    await expect(readRecordingFile(path('future.json'))).rejects.toThrow(/kind/);
    await expect(readRecordingFile(path('events.json'))).rejects.toThrow(/events\.0\.id/);
  });

  it('refuses a recording with a damaged event, naming the file and the event, before anything replays it', async () => {
    const session = await storedSession(researchRunner(), 'Lyon?');
    const { recordingPath } = await writeEvalCaseFiles(dir, sessionToEvalCase(session, { name: 'lyon' }), session.id);
    const file = JSON.parse(await readFile(recordingPath, 'utf8')) as { events: { message?: { role: string; content: unknown } }[] };
    const index = file.events.findIndex((e) => e.message?.role === 'assistant');
    (file.events[index]?.message as { content: unknown }).content = null;
    await writeFile(recordingPath, JSON.stringify(file));
    const error = await readRecordingFile(recordingPath).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'EvalInputError', kind: 'file' });
    expect((error as Error).message).toContain(`${recordingPath}: The recording's event ${index} (id "${session.events[index]?.id}")`);
    expect((error as Error).message).toMatch(/message\.content: .*expected array, received null/);
    expect((error as Error).cause).toMatchObject({ name: 'ReplayError', kind: 'recording' });

    // Cut short (a copy interrupted mid-write): not JSON, said so.
    const text = await readFile(recordingPath, 'utf8');
    await writeFile(recordingPath, text.slice(0, Math.floor(text.length / 2)));
    await expect(readRecordingFile(recordingPath)).rejects.toThrow(/is not JSON .*replan eval --from-session/);
  });
});
