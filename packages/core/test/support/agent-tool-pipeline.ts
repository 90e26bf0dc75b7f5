import { InMemorySessionStore, ReActAgent, Runner, agentTool, messageText } from '@replan/core';
import { ScriptedModel, callTools } from '@replan/core/testing';

/** An inner agent that answers from its input, and an outer agent that calls it as a tool. */
export function pipeline(options: { inner?: ScriptedModel; outer?: ScriptedModel; store?: InMemorySessionStore } = {}) {
  const inner = options.inner ?? new ScriptedModel({ respond: (req) => `researched: ${messageText(req.messages.at(-1))}` });
  const researcher = new ReActAgent({ name: 'researcher', description: 'Researches a topic', model: inner });
  const outer =
    options.outer ??
    new ScriptedModel({ responses: [callTools({ name: 'research', args: { input: 'tides' }, id: 'o1' }), 'Answer: tides are lunar.'] });
  const root = new ReActAgent({ name: 'root', model: outer, tools: [agentTool(researcher, { name: 'research' })] });
  const store = options.store ?? new InMemorySessionStore();
  return { inner, outer, runner: new Runner({ agent: root, appName: 'compose', sessionStore: store }), store };
}
