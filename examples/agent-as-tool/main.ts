/**
 * An agent used as a tool: an editor calls a researcher agent, which runs in a child session of
 * the same store. The researcher's `publish` tool needs approval: the editor's run stops with a
 * nested interrupt id, and a new Runner over the same files (another process in real life)
 * answers it. Offline: ScriptedModels answer from the conversation.
 * Run: pnpm build && npx tsx examples/agent-as-tool/main.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { FileSessionStore, ReActAgent, Runner, agentTool, messageText, readChildSessionLink, tool, toolResultsOf } from '@replan/core';
import { ScriptedModel, callTools } from '@replan/core/testing';

const dir = mkdtempSync(join(tmpdir(), 'replan-agent-tool-'));

const publish = tool({
  name: 'publish',
  description: 'Publishes a post',
  parameters: z.object({ title: z.string() }),
  needsApproval: true,
  execute: ({ title }) => `published "${title}"`,
});

/** Answers from the conversation, so a resumed process gets the same answers. */
const researcherModel = new ScriptedModel({
  respond: (request) => {
    const result = toolResultsOf(request.messages.at(-1))[0];
    if (result) return `Done: ${String(result.output)}.`;
    return callTools({ name: 'publish', args: { title: 'Why tides happen' }, id: 'pub-1' });
  },
});
const editorModel = new ScriptedModel({
  respond: (request) => {
    const result = toolResultsOf(request.messages.at(-1))[0];
    if (result) return `The researcher reports: ${String(result.output)}`;
    return callTools({ name: 'research', args: { input: 'Write a short post on tides and publish it.' }, id: 'res-1' });
  },
});

const researcher = new ReActAgent({
  name: 'researcher',
  description: 'Writes and publishes posts',
  model: researcherModel,
  tools: [publish],
});
const editor = new ReActAgent({ name: 'editor', model: editorModel, tools: [agentTool(researcher, { name: 'research' })] });
const newRunner = () => new Runner({ agent: editor, appName: 'blog', sessionStore: new FileSessionStore({ dir }) });

// 1. The nested approval stops the outer run; its id and path carry the nesting.
const first = newRunner().run({ userId: 'ana', sessionId: 'tides', input: 'Get a post about tides out.' });
for await (const event of first)
  if (event.path.startsWith('editor/research/')) console.log(`  [${event.path}] ${messageText(event.message) || '(tool call)'}`);
const stopped = await first.result();
for (const i of stopped.interrupts)
  console.log(`run 1: ${stopped.status}; waiting for ${i.id} (${i.reason} of ${i.toolName}, asked by ${i.path})`);

// 2. Another Runner over the same files approves: the inner tool runs, then the researcher, then the editor.
const runner = newRunner();
const done = await runner.resume({ userId: 'ana', sessionId: 'tides', values: { [stopped.interrupts[0]!.id]: true } }).result();
console.log(`resume: ${done.status} — ${done.output}`);
console.log(`model calls of this resume, nested ones included: ${done.modelCalls}`);

// 3. The child session is an ordinary session, linked to the tool call that made it.
const { sessions } = await runner.sessionStore.list({ appName: 'blog', userId: 'ana' });
for (const summary of sessions) {
  const session = await runner.sessionStore.get({ appName: 'blog', userId: 'ana', id: summary.id });
  const link = readChildSessionLink(session?.events[0]?.meta);
  if (link)
    console.log(
      `child session ${summary.id}: tool call ${link.toolCallId} of session ${link.parentSessionId}, ${session?.events.length} events`,
    );
}

await runner.sessionStore.close?.();
rmSync(dir, { recursive: true, force: true });
