import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileSessionStore, Runner } from '@replan/core';
import { ReplayModel, replayTools } from '@replan/core/testing';
import { createPlanExecuteAgent } from '@replan/planexecute';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineEvalSet, readEvalCaseFile, readRecordingFile, runEval } from '@replan/eval';
import { runEvalCli } from '@replan/eval/cli';
import { lookupTool, researchRunner } from './support/agents.js';

// The whole path: a run recorded on a file store (a production session) → `replan eval
// --from-session` → the case and recording files → a Vitest test that replays them offline.
// docs/testing-and-evals.md ("From production to a test") copies the test below.
let dir: string;
let out: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'replan-prod-to-test-'));
  out = join(dir, 'cases');
  const production = researchRunner({ store: new FileSessionStore({ dir: join(dir, 'store') }), cities: () => ['Lyon', 'Porto'] });
  await production.run({ userId: 'ana', sessionId: 'incident-42', input: 'Compare Lyon and Porto' }).result();
  const argv = ['--from-session', 'incident-42', '--store', join(dir, 'store'), '--app', 'eval-test', '--user', 'ana'];
  const code = await runEvalCli([...argv, '--out', out, '--name', 'compare-cities'], { out: () => undefined });
  if (code !== 0) throw new Error(`--from-session exited ${code}`);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('from production to a test', () => {
  it('replays the stored session offline and passes, without running a tool', async () => {
    let toolRuns = 0;
    const lookup = lookupTool({ onTool: (phase) => void (phase === 'start' && toolRuns++) });

    const evalCase = await readEvalCaseFile(join(out, 'compare-cities.case.json'));
    const recording = await readRecordingFile(join(out, 'compare-cities.recording.json'));
    const report = await runEval({
      set: defineEvalSet({ name: 'regressions', cases: [evalCase] }),
      // Each run: the agent as in production, every role answered from the recording, no tool run.
      makeRunner: () => {
        const model = ReplayModel.fromSession(recording);
        const agent = createPlanExecuteAgent({ model, tools: replayTools(recording, [lookup]) });
        return new Runner({ agent, appName: 'eval-test' });
      },
    });
    expect(report.pass).toBe(true);

    expect(report.cases[0]?.criteria.map((c) => [c.criterion, c.pass])).toEqual([
      ['trajectory', true],
      ['answer', true],
      ['status', true],
    ]);
    expect(toolRuns).toBe(0);
  });

  it('fails, naming the replay mismatch, when the agent changed since the recording', async () => {
    const evalCase = await readEvalCaseFile(join(out, 'compare-cities.case.json'));
    const recording = await readRecordingFile(join(out, 'compare-cities.recording.json'));
    const report = await runEval({
      set: defineEvalSet({ name: 'regressions', cases: [evalCase] }),
      makeRunner: () =>
        researchRunner({
          model: ReplayModel.fromSession(recording),
          wrapTools: (tools) => replayTools(recording, tools),
          lookupDescription: 'Looks a city up, with its population.',
        }),
    });
    const run = report.cases[0]?.runs[0];
    expect(report.pass).toBe(false);
    expect(run?.status).toBe('failed');
    expect(run?.error?.name).toBe('ReplayError');
    // The planner's prompt lists the tools with their descriptions: its first call already differs.
    expect(run?.error?.message).toMatch(/agent "plan_execute\/planner" call #1 .*the system prompt \/ instruction differs/);
  });
});
