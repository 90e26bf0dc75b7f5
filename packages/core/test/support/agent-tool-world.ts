import { z } from 'zod';
import { InMemorySessionStore, ReActAgent, Runner, type RunObserver, type SessionStore, agentTool, tool } from '@replan/core';
import { type ScriptedModel, callTools } from '@replan/core/testing';

/**
 * root ─ research (agentTool) ─ researcher ─ publish (needs approval), ask (ctx.interrupt)
 *      └ outer_delete (needs approval; its call id collides with the inner one on purpose)
 */
export function world(
  models: { outer: ScriptedModel; inner: ScriptedModel },
  store: SessionStore = new InMemorySessionStore(),
  observers: readonly RunObserver[] = [],
) {
  const ran = { publish: [] as string[], ask: [] as string[], outerDelete: 0 };
  const publish = tool({
    name: 'publish',
    description: 'Publish a post',
    parameters: z.object({ title: z.string() }),
    needsApproval: true,
    execute: ({ title }) => (ran.publish.push(title), `published ${title}`),
  });
  const ask = tool({
    name: 'ask',
    description: 'Ask the user',
    parameters: z.object({ question: z.string() }),
    execute: ({ question }, ctx) => {
      const answer = ctx.interrupt<string>({ question }, { reason: 'question' });
      ran.ask.push(answer);
      return `user said ${answer}`;
    },
  });
  const outerDelete = tool({
    name: 'outer_delete',
    description: 'Delete everything',
    parameters: z.object({}),
    needsApproval: true,
    execute: () => (ran.outerDelete++, 'deleted'),
  });
  const researcher = new ReActAgent({ name: 'researcher', model: models.inner, tools: [publish, ask] });
  const root = new ReActAgent({ name: 'root', model: models.outer, tools: [agentTool(researcher, { name: 'research' }), outerDelete] });
  return { ran, store, runner: new Runner({ agent: root, appName: 'nest', sessionStore: store, observers }) };
}

export const researchCall = (id = 'o1') => callTools({ name: 'research', args: { input: 'write a post' }, id });
export const publishCall = () => callTools({ name: 'publish', args: { title: 'Tides' }, id: 'a1' });
