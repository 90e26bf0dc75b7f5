import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  InMemorySessionStore,
  type ModelRequest,
  ReActAgent,
  Runner,
  stringifyToolOutput,
  toolResultsOf,
  offloadToolResults,
} from '@replan/core';
import { callTools, ScriptedModel } from '@replan/core/testing';
import { type McpToolset, mcpTools } from '@replan/mcp';
import { startTestHttpServer, type TestHttpServer } from './support/mcp-http-server.js';

const NEEDLE = 'the launch code is 7-4-1-9';
type Search = { matchCount: number; matches: { line: number; offset: number; text: string }[] };
const lastShown = (request: ModelRequest | undefined) => (request?.messages ?? []).flatMap((m) => toolResultsOf(m)).at(-1);
/** The output of the tool result the model was shown last. */
const shownOutput = <T>(request: ModelRequest | undefined): T => lastShown(request)?.output as T;

let server: TestHttpServer;
let mcp: McpToolset;
beforeEach(async () => {
  server = await startTestHttpServer(join(mkdtempSync(join(tmpdir(), 'replan-mcp-')), 'effects.log'));
  mcp = await mcpTools({ url: server.url }, { filter: ['report'] });
});
afterEach(async () => {
  await mcp.close();
  await server.close();
});

/** An agent with `toolResults` that calls `report`, searches its result for the needle, reads there, and answers. */
async function findNeedle(shape: 'text' | 'structured' | 'resource') {
  const model = new ScriptedModel({
    responses: [
      callTools({ id: 'rep', name: 'report', args: { lines: 4000, needle: NEEDLE, shape } }),
      callTools({ id: 's1', name: 'search_tool_result', args: { toolCallId: 'rep', pattern: 'launch code' } }),
      (request) => {
        const offset = shownOutput<Search>(request).matches[0]?.offset;
        return callTools({ id: 'r1', name: 'read_tool_result', args: { toolCallId: 'rep', offset, length: 300 } });
      },
      'found',
    ],
  });
  const agent = new ReActAgent({ name: 'worker', model, tools: [...mcp.tools], middleware: [offloadToolResults({ maxTokens: 500 })] });
  const runner = new Runner({ agent, appName: 'mcp', sessionStore: new InMemorySessionStore() });
  const result = await runner.run({ userId: 'u', input: 'find the code' }).result();
  return {
    result,
    shown: stringifyToolOutput(lastShown(model.requests[1])?.output),
    search: lastShown(model.requests[2])?.output as Search,
    read: lastShown(model.requests[3])?.output as { text: string; total: number },
  };
}

describe('MCP tool results are offloaded like any tool result', () => {
  for (const shape of ['text', 'structured', 'resource'] as const)
    it(`a long ${shape} result: the model sees a preview; search and read find the needle in the whole result`, async () => {
      const { result, shown, search, read } = await findNeedle(shape);
      expect(result.status).toBe('completed');
      expect(shown.length).toBeLessThan(2000 + 600);
      expect(shown).not.toContain(NEEDLE);
      expect(shown).toContain('read_tool_result({ "toolCallId": "rep"');
      expect(search.matchCount).toBe(1);
      expect(search.matches[0]?.text).toContain(NEEDLE);
      expect(read.text).toContain(NEEDLE);
      expect(read.total).toBeGreaterThan(80_000);
    });
});
