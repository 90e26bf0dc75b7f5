// An A2A server process on a file store, for the restart tests. It prints one JSON line: { "url": ... },
// and { "started": true } when its blocking tool starts (the test kills it then).
// Run: node --import tsx a2a-agent-server.ts <store dir> <blocking|approval>
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FileSessionStore, ReActAgent, Runner, tool } from '@replan/core';
import { callTools, ScriptedModel } from '@replan/core/testing';
import { z } from 'zod';
import { a2aServer } from '../../src/index.js';
import { approvalRunner } from './runners.js';

const [dir = '', kind = 'blocking'] = process.argv.slice(2);
const store = new FileSessionStore({ dir: join(dir, 'sessions') });

/** Blocks (until the process is killed) the first time in this store; a restarted server gets past it. */
const wait = tool({
  name: 'wait',
  description: 'Waits',
  parameters: z.object({}),
  execute: () => {
    const marker = join(dir, 'blocked-once');
    if (existsSync(marker)) return 'waited';
    writeFileSync(marker, '');
    process.stdout.write(`${JSON.stringify({ started: true })}\n`);
    return new Promise<string>(() => {});
  },
});
const waiter = new ReActAgent({
  name: 'waiter',
  description: 'Waits',
  model: new ScriptedModel({
    respond: (request) =>
      request.messages.at(-1)?.content.some((b) => b.type === 'tool_result') ? 'Done waiting.' : callTools({ name: 'wait', args: {} }),
  }),
  tools: [wait],
});
const runner =
  kind === 'approval'
    ? new Runner({ agent: approvalRunner({ count: 0 }).agent, appName: 'a2a-test', sessionStore: store })
    : new Runner({ agent: waiter, appName: 'a2a-test', sessionStore: store });

const endpoint = await a2aServer({ runner }).listen();
process.stdout.write(`${JSON.stringify({ url: endpoint.url })}\n`);
