import { describe, expect, it } from 'vitest';
import { ConfigurationError, offloadToolResults } from '@replan/core';
import { ScriptedModel } from '@replan/core/testing';
import { createPlanExecuteAgent, SessionKeys } from '@replan/planexecute';
import { allText, collect, planCall, respondCall, runnerFor } from './support.js';
import { graphCall } from './graph-support.js';

const NEEDLE = 'the launch code is 7-4-1-9';
const long = (label: string) => `${`${label} head. `.repeat(200)}${NEEDLE}${` ${label} tail.`.repeat(200)}`;

describe('step results shown to the replanner are capped like tool results', () => {
  it('linear: a long result reaches the replanner as head, tail and a note; the session and the next step keep it whole', async () => {
    const first = long('one');
    const models = {
      planner: new ScriptedModel({ responses: [planCall(['collect', 'use $1'])] }),
      executor: new ScriptedModel({ responses: [first, 'used it'] }),
      replanner: new ScriptedModel({ responses: [planCall(['use $1']), respondCall('done')] }),
    };
    const agent = createPlanExecuteAgent({
      model: models.planner,
      executorModel: models.executor,
      replannerModel: models.replanner,
      middleware: [offloadToolResults({ maxTokens: 100 })],
    });
    const h = runnerFor(agent);
    const { result } = await collect(h.runner.run({ userId: 'u', sessionId: 's', input: 'go' }));
    expect(result.status).toBe('completed');
    const shown = allText(models.replanner.requests[0]);
    expect(shown).not.toContain(NEEDLE);
    expect(shown).toContain(`[This result is ${first.length} characters long; shown are characters 0–240 and`);
    expect(shown).toContain('a later step that writes $1 in its text is shown it in full.');
    expect(shown.length).toBeLessThan(first.length);
    // Kept whole: in the session, and in the next step's prompt.
    const state = await h.state('s');
    expect((state[SessionKeys.ExecutedSteps] as { result: string }[])[0]?.result).toBe(first);
    expect(allText(models.executor.requests[1])).toContain(NEEDLE);
    // Short results are shown as they are.
    expect(allText(models.replanner.requests[1])).toContain('used it');
  });

  it('graph: the note says how a new step gets the result (dependsOn and $id)', async () => {
    const replannerModel = new ScriptedModel({ responses: [respondCall('done')] });
    const agent = createPlanExecuteAgent({
      mode: 'graph',
      model: new ScriptedModel({ responses: [graphCall(['a', 'collect', []])] }),
      executorModel: new ScriptedModel({ responses: [long('alpha')] }),
      replannerModel,
      middleware: [offloadToolResults({ maxTokens: 100 })],
    });
    await collect(runnerFor(agent).runner.run({ userId: 'u', input: 'go' }));
    const shown = allText(replannerModel.requests[0]);
    expect(shown).not.toContain(NEEDLE);
    expect(shown).toContain('a new step that lists "a" in dependsOn and writes $a in its task is given it in full.');
  });

  it('without offloadToolResults nothing is cut; a bad size is a ConfigurationError', async () => {
    const replannerModel = new ScriptedModel({ responses: [respondCall('done')] });
    const agent = createPlanExecuteAgent({
      model: new ScriptedModel({ responses: [planCall(['collect'])] }),
      executorModel: new ScriptedModel({ responses: [long('one')] }),
      replannerModel,
    });
    await collect(runnerFor(agent).runner.run({ userId: 'u', input: 'go' }));
    expect(allText(replannerModel.requests[0])).toContain(NEEDLE);
    expect(() => offloadToolResults({ maxTokens: 3 })).toThrow(ConfigurationError);
    expect(() => offloadToolResults({ maxTokens: 3 })).toThrow(/maxTokens must be an integer of at least 16/);
  });
});
