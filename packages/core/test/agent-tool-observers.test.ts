import { describe, expect, it } from 'vitest';
import { ReActAgent, Runner, agentTool, type RunLifecycleEvent, type RunObserver, type RunResult } from '@replan/core';
import { childSessionId } from '@replan/core/agent-kit';
import { ScriptedModel, callTools } from '@replan/core/testing';
import { collect } from './support.js';

describe('agentTool: the child run as observers and the tool output see it', () => {
  it("gives the tool's output its own run's usage, and reports the child run to observers linked to the tool call", async () => {
    const seen: RunResult[] = [];
    const researcher = new ReActAgent({
      name: 'researcher',
      description: 'Researches a topic',
      model: new ScriptedModel({ id: 'inner', responses: ['found'] }),
    });
    const tool = agentTool(researcher, {
      name: 'research',
      output: (result) => {
        seen.push(result);
        return result.output;
      },
    });
    const outer = new ScriptedModel({ responses: [callTools({ name: 'research', args: { input: 'tides' }, id: 'o1' }), 'done'] });
    const events: RunLifecycleEvent[] = [];
    const push = (e: RunLifecycleEvent) => void events.push(e);
    const observer: RunObserver = { onRunStart: push, onRunEnd: push, onModelCallEnd: push, onToolCallStart: push };
    const runner = new Runner({
      agent: new ReActAgent({ name: 'root', model: outer, tools: [tool] }),
      appName: 'compose',
      observers: [observer],
    });
    const { result } = await collect(runner.run({ userId: 'u', sessionId: 's', input: 'q' }));
    expect(result.modelCalls).toBe(2 + 1);
    // The child's own figures, not the parent's running totals.
    expect(seen[0]).toMatchObject({ modelCalls: 1, usage: { inputTokens: 10, outputTokens: 5 } });
    expect(Object.keys(seen[0]!.breakdown.byAgent)).toEqual(['researcher']);

    const childId = childSessionId('s', result.invocationId, 'o1');
    const starts = events.filter((e) => e.kind === 'run-start');
    expect(starts.map((e) => [e.sessionId, e.agent, e.parent?.toolCallId])).toEqual([
      ['s', 'root', undefined],
      [childId, 'researcher', 'o1'],
    ]);
    const toolStart = events.find((e) => e.kind === 'tool-call-start');
    expect(starts[1]?.parent).toEqual({
      sessionId: 's',
      invocationId: result.invocationId,
      agentRunId: toolStart?.agentRunId,
      toolCallId: 'o1',
      toolName: 'research',
    });
    const innerCall = events.find((e) => e.kind === 'model-call-end' && e.model === 'inner');
    expect(innerCall).toMatchObject({ sessionId: childId, path: 'researcher' });
    const ends = events.filter((e) => e.kind === 'run-end');
    expect(ends.map((e) => [e.sessionId, e.status, e.usage.inputTokens])).toEqual([
      [childId, 'completed', 10],
      ['s', 'completed', 30],
    ]);
  });
});
