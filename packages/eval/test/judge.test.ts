import { messageText } from '@replan/core';
import { ScriptedModel } from '@replan/core/testing';
import { describe, expect, it } from 'vitest';
import { defineEvalSet, JUDGE_INSTRUCTION, runEval } from '@replan/eval';
import { researchRunner } from './support/agents.js';

const verdict = (v: object) => JSON.stringify(v);

async function judged(judge: ScriptedModel, threshold?: number) {
  const set = defineEvalSet({
    name: 'judged',
    judge,
    cases: [
      {
        name: 'polite',
        input: 'Tell me about Lyon',
        expect: { answer: { judge: { rubric: 'Names the city.', ...(threshold !== undefined ? { threshold } : {}) } } },
      },
    ],
  });
  const report = await runEval({ set, runner: researchRunner() });
  return report.cases[0]?.criteria[0];
}

describe('LLM judge', () => {
  it('asks the judge with the rubric and the quoted question and answer, and keeps its verdict', async () => {
    const judge = new ScriptedModel({ responses: [verdict({ score: 0.9, pass: true, reason: 'It names Lyon.' })] });
    expect(await judged(judge)).toEqual({
      criterion: 'answer',
      score: 0.9,
      pass: true,
      passRate: 1,
      reason: 'judge: score 0.9 — It names Lyon.',
    });
    const request = judge.requests[0];
    expect(messageText(request?.messages[0])).toBe(JUDGE_INSTRUCTION);
    const prompt = messageText(request?.messages[1]);
    expect(prompt).toContain('Rubric:\nNames the city.');
    expect(prompt).toContain('[user] asked: Tell me about Lyon');
    expect(prompt).toContain('[agent] answered: Answer to Tell me about Lyon');
    expect(prompt).toContain('<<<BEGIN QUOTED CONTEXT>>>');
    expect(request?.responseFormat?.name).toBe('verdict');
  });

  it('fails on the judge’s pass: false, or on a score under the threshold (which then decides)', async () => {
    const no = new ScriptedModel({ responses: ['```json\n' + verdict({ score: 0.2, pass: false, reason: 'Vague.' }) + '\n```'] });
    expect(await judged(no)).toMatchObject({ pass: false, score: 0.2, reason: 'judge: score 0.2 — Vague.' });
    const low = new ScriptedModel({ responses: [verdict({ score: 0.6, pass: true, reason: 'Fine.' })] });
    expect(await judged(low, 0.7)).toMatchObject({ pass: false, reason: 'judge: score 0.6 (threshold 0.7) — Fine.' });
    const high = new ScriptedModel({ responses: [verdict({ score: 0.8, pass: false, reason: 'Strict.' })] });
    expect(await judged(high, 0.7)).toMatchObject({ pass: true });
  });

  it('a reply that is no verdict, or a judge that throws, fails the criterion and names why', async () => {
    expect((await judged(new ScriptedModel({ responses: ['Looks good to me!'] })))?.reason).toMatch(/the judge did not reply with JSON/);
    expect((await judged(new ScriptedModel({ responses: [verdict({ score: 3, pass: true, reason: 'x' })] })))?.reason).toMatch(
      /is not \{score 0\.\.1, pass, reason\}: score/,
    );
    expect(await judged(new ScriptedModel({ responses: [new Error('rate limited')] }))).toMatchObject({
      pass: false,
      reason: 'the judge (scripted) failed: rate limited',
    });
  });

  it('a case’s own judge model wins over the set’s', async () => {
    const setJudge = new ScriptedModel({ respond: () => verdict({ score: 0, pass: false, reason: 'set judge' }) });
    const caseJudge = new ScriptedModel({ respond: () => verdict({ score: 1, pass: true, reason: 'case judge' }) });
    const set = defineEvalSet({
      name: 'two judges',
      judge: setJudge,
      cases: [{ name: 'a', input: 'Lyon', expect: { answer: { judge: { rubric: 'Any.', model: caseJudge } } } }],
    });
    const report = await runEval({ set, runner: researchRunner() });
    expect(report.cases[0]?.criteria[0]?.reason).toBe('judge: score 1 — case judge');
    expect(setJudge.calls).toBe(0);
  });
});
