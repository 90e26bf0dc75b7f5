import { describe, expect, it } from 'vitest';
import {
  AgentToolError,
  ConfigurationError,
  MAX_ID_LENGTH,
  ReActAgent,
  Runner,
  agentTool,
  childSessionId,
  toolResultsOf,
  type ToolContext,
} from '@replan/core';
import { assertSessionKey } from '@replan/core/store-kit';
import { ScriptedModel } from '@replan/core/testing';
import { collect } from './support.js';
import { pipeline } from './support/agent-tool-pipeline.js';

describe('agentTool: bad inputs', () => {
  const researcher = new ReActAgent({ name: 'researcher', model: new ScriptedModel({ respond: () => 'x' }) });

  it('refuses a missing agent and an invalid tool name at construction', () => {
    expect(() => agentTool(undefined as never)).toThrow(ConfigurationError);
    expect(() => agentTool(researcher, { name: 'has space' })).toThrow(/Tool name "has space" is invalid/);
  });

  it('called outside a run it fails with a ConfigurationError that says why', async () => {
    const t = agentTool(researcher);
    await expect(Promise.resolve(t.execute({ input: 'x' }, { toolCallId: 'c' } as ToolContext))).rejects.toThrow(
      /runs only inside a Runner/,
    );
  });

  it("a session at the child id that is not this call's child is refused (a ChildSessionError of kind conflict), and nothing runs", async () => {
    const { runner, store, inner, outer } = pipeline();
    await store.create({ appName: 'compose', userId: 'u', id: childSessionId('s', 'inv-1', 'o1') }, []);
    const fixed = new Runner({ agent: runner.agent, appName: 'compose', sessionStore: store, generateId: sequentialIds('inv-1') });
    const { result } = await collect(fixed.run({ userId: 'u', sessionId: 's', input: 'q' }));
    expect(result.status).toBe('completed');
    expect(inner.calls).toBe(0);
    const toolResult = toolResultsOf(outer.requests[1]?.messages.at(-1))[0];
    expect(toolResult?.isError).toBe(true);
    expect(String(toolResult?.output)).toMatch(/is not the child session of tool call "o1" in session "s"/);
  });

  it('child session ids are valid identifiers, bounded, and distinct for distinct calls', () => {
    const long = 'p'.repeat(MAX_ID_LENGTH);
    const ids = [
      childSessionId('s', 'i', 'c1'),
      childSessionId('s', 'i', 'c2'),
      childSessionId('s', 'j', 'c1'),
      childSessionId('s/c1', 'i', ''),
      childSessionId(long, 'i', 'c1'),
      childSessionId(long, 'i', 'c2'),
      childSessionId(`${'x'.repeat(238)}\u{1F600}`, 'i', 'c\u0000\n1'),
    ];
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) {
      expect(id.length).toBeLessThanOrEqual(MAX_ID_LENGTH);
      expect(() => assertSessionKey({ appName: 'a', userId: 'u', id })).not.toThrow();
    }
    expect(childSessionId('s', 'i', 'c1')).toBe(childSessionId('s', 'i', 'c1'));
    expect(childSessionId('s', 'i', 'c1')).toMatch(/^s\/c1#[0-9a-f]{16}$/);
  });

  it('AgentToolError names the agent, the tool, the status and the child session', () => {
    const error = new AgentToolError('research', 'researcher', 'failed', 'child-1', 'boom');
    expect(error.message).toMatch(/Agent "researcher" \(tool "research"\) ended failed without an answer: boom.*"child-1"/);
  });
});

/** Ids `first`, then `id-1`, `id-2`, …: the first id a Runner makes is the invocation id. */
function sequentialIds(first: string): () => string {
  let n = 0;
  return () => (n++ === 0 ? first : `id-${n}`);
}
