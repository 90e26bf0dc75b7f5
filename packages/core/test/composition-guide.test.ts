// The code of "Agents as tools" in docs/composition.md: the snippets there are copied from this
// file (doc-snippets.test.ts checks they stay the same).
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { agentTool, InMemorySessionStore, ReActAgent, Runner, tool } from '@replan/core';
import { callTools, ScriptedModel } from '@replan/core/testing';

describe('agents as tools (docs/composition.md)', () => {
  it('runs a researcher as a tool; its approval stops the outer run and is answered there', async () => {
    const store = new InMemorySessionStore();
    const researchModel = new ScriptedModel({
      responses: [callTools({ name: 'publish', args: { title: 'Tides' }, id: 'a1' }), 'Published "Tides".'],
    });
    const rootModel = new ScriptedModel({
      responses: [
        callTools({ name: 'research', args: { input: 'Write and publish a post on tides' }, id: 'o1' }),
        'Done: the post is out.',
      ],
    });

    const publish = tool({
      name: 'publish',
      description: 'Publishes a post',
      parameters: z.object({ title: z.string() }),
      needsApproval: true,
      execute: ({ title }) => `published ${title}`,
    });
    const researcher = new ReActAgent({
      name: 'researcher',
      description: 'Writes and publishes posts',
      model: researchModel,
      tools: [publish],
    });
    const root = new ReActAgent({ name: 'root', model: rootModel, tools: [agentTool(researcher, { name: 'research' })] });
    const runner = new Runner({ agent: root, appName: 'blog', sessionStore: store });

    const first = await runner.run({ userId: 'u1', sessionId: 's1', input: 'Blog about tides' }).result();
    expect(first.status).toBe('interrupted');
    expect(first.interrupts[0]).toMatchObject({
      id: 'o1/a1:approval',
      reason: 'approval',
      toolName: 'publish',
      path: 'root/research/researcher',
    });

    // Any process with the same store can answer: the inner tool runs, then the researcher, then the root.
    const done = await runner.resume({ userId: 'u1', sessionId: 's1', values: { 'o1/a1:approval': true } }).result();
    expect(done.output).toBe('Done: the post is out.');
  });
});
