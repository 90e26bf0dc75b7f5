// An MCP server over stdio whose one agent's tool takes 60 s (a timer that honours the signal), its sessions in
// the FileSessionStore at $MCP_STORE_DIR. Run: node --import tsx mcp-slow-server.ts
import { FileSessionStore, ReActAgent, Runner, tool } from '@replan/core';
import { callTools, ScriptedModel } from '@replan/core/testing';
import { z } from 'zod';
import { mcpServer } from '../../src/index.js';

const slow = tool({
  name: 'slow',
  description: 'Takes a minute',
  parameters: z.object({}),
  execute: (_args, ctx) =>
    new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => resolve('done'), 60_000);
      ctx.signal.addEventListener('abort', () => {
        clearTimeout(timer);
        reject(ctx.signal.reason);
      });
    }),
});
const model = new ScriptedModel({ responses: [callTools({ name: 'slow', args: {} }), 'finished'] });
const agent = new ReActAgent({ name: 'slowpoke', description: 'Slow', model, tools: [slow] });
const store = new FileSessionStore({ dir: process.env.MCP_STORE_DIR as string });
await mcpServer({ runners: [new Runner({ agent, appName: 'mcp-test', sessionStore: store })] }).serveStdio();
