import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ConfigurationError,
  type ContentBlock,
  InMemorySessionStore,
  ReActAgent,
  Runner,
  type Tool,
  type ToolContext,
  tool,
  toolResultsOf,
} from '@replan/core';
import { McpError, type McpToolset, mcpTools } from '@replan/mcp';
import { callTools, ScriptedModel } from '@replan/core/testing';
import { z } from 'zod';
import { loadMcpSdk } from '../src/client/load-mcp-sdk.js';
import { openMcpToolset } from '../src/client/live-toolset.js';
import { toolOutputOf } from '../src/client/mcp-result.js';
import { PDF_BYTES, TINY_PNG } from './support/mcp-test-server-tools.mjs';
import { startTestHttpServer, type TestHttpServer } from './support/mcp-http-server.js';

let server: TestHttpServer;
let effects: string;
const opened: McpToolset[] = [];

beforeEach(async () => {
  effects = join(mkdtempSync(join(tmpdir(), 'replan-mcp-')), 'effects.log');
  server = await startTestHttpServer(effects);
});
afterEach(async () => {
  for (const set of opened.splice(0)) await set.close();
  await server.close();
});

const open = async (options: Parameters<typeof mcpTools>[1] = {}) => {
  const set = await mcpTools({ url: server.url }, options);
  opened.push(set);
  return set;
};
const effectLines = () => (existsSync(effects) ? readFileSync(effects, 'utf8').trim().split('\n').filter(Boolean) : []);
const named = (set: McpToolset, name: string): Tool => {
  const found = set.tools.find((t) => t.name === name);
  if (!found) throw new Error(`no tool ${name} in ${set.tools.map((t) => t.name).join(', ')}`);
  return found;
};
const ctx = (signal = new AbortController().signal) => ({ signal }) as unknown as ToolContext;
const until = async (check: () => boolean) => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(check()).toBe(true);
};

/** Runs a ReAct agent with the tools, the model calling `call` once, then answering. */
async function runWith(tools: readonly Tool[], call: { name: string; args: Record<string, unknown> }) {
  const model = new ScriptedModel({ responses: [callTools(call), 'done'] });
  const agent = new ReActAgent({ name: 'worker', model, tools: [...tools] });
  const runner = new Runner({ agent, appName: 'mcp', sessionStore: new InMemorySessionStore() });
  const run = runner.run({ userId: 'u', input: 'go' });
  const results = [];
  for await (const event of run) results.push(...toolResultsOf(event.message));
  return { result: await run.result(), toolResult: results[0], model };
}

describe('mcpTools over Streamable HTTP', () => {
  it('lists the server tools with their JSON Schemas as given and names providers accept', async () => {
    const mcp = await open();
    expect(mcp.serverName).toBe('http-server');
    expect(mcp.pid).toBeUndefined();
    const names = mcp.tools.map((t) => t.name);
    expect(names).toContain('echo');
    expect(names).toContain('name_with_spaces');
    for (const name of names) expect(name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    const add = named(mcp, 'add');
    expect(add.description).toBe('Adds two numbers.');
    expect(add.jsonSchema).toMatchObject({
      type: 'object',
      properties: { a: { type: 'number' }, b: { type: 'number' } },
      required: ['a', 'b'],
    });
    expect(add.jsonSchema).not.toHaveProperty('$schema');
  });

  it('runs an agent whose model calls an MCP tool, the structured result reaching the model', async () => {
    const mcp = await open();
    const { result, toolResult, model } = await runWith(mcp.tools, { name: 'add', args: { a: 2, b: 3 } });
    expect(result.status).toBe('completed');
    expect(toolResult).toMatchObject({ name: 'add', output: { sum: 5 } });
    expect(toolResult?.isError).toBeUndefined();
    // the model was offered the server's schema
    expect(model.requests[0]?.tools?.find((t) => t.name === 'add')?.parameters).toMatchObject({ required: ['a', 'b'] });
  });

  it('maps text, image and resource content, and isError results', async () => {
    const mcp = await open();
    expect(await named(mcp, 'echo').execute({ text: 'hi' }, ctx())).toBe('echo: hi');
    expect(await named(mcp, 'picture').execute({}, ctx())).toEqual([
      { type: 'text', text: 'a picture' },
      { type: 'image', mediaType: 'image/png', data: TINY_PNG },
      { type: 'text', text: 'the notes' },
      { type: 'file', mediaType: 'application/pdf', data: PDF_BYTES, filename: 'report 1.pdf' },
      { type: 'text', text: '[resource file:///raw.bin: 3 bytes without a media type, not shown]' },
      { type: 'text', text: '[audio: audio/wav, 4 bytes, not shown]' },
      { type: 'text', text: '[resource link: file:///more.txt (more)]' },
    ]);
    const { toolResult } = await runWith(mcp.tools, { name: 'fail', args: { why: 'no disk' } });
    expect(toolResult).toMatchObject({ isError: true });
    expect(toolResult?.output).toContain('cannot do it: no disk');
  });

  it('an image an MCP tool returns reaches the model as an image block, and the file as a file block', async () => {
    const mcp = await open();
    const { result, toolResult, model } = await runWith(mcp.tools, { name: 'picture', args: {} });
    expect(result.status).toBe('completed');
    expect(toolResult?.isError).toBeUndefined();
    const sent = model.requests[1]?.messages.flatMap((m) => m.content).find((b) => b.type === 'tool_result');
    const output = (sent as { output: ContentBlock[] } | undefined)?.output ?? [];
    const image = output.find((b) => b.type === 'image');
    expect(image).toEqual({ type: 'image', mediaType: 'image/png', data: TINY_PNG });
    expect(output.find((b) => b.type === 'file')).toMatchObject({ mediaType: 'application/pdf', data: PDF_BYTES });
  });

  it('describes in text what a block cannot hold or most models refuse: bad base64, no media type, SVG, an archive', () => {
    expect(toolOutputOf({ content: [{ type: 'image', data: 'not base64!', mimeType: 'image/png' }] })).toEqual([
      { type: 'text', text: '[image: its data is not valid base64, so it is not shown]' },
    ]);
    expect(toolOutputOf({ content: [{ type: 'resource', resource: { uri: 'file:///x', mimeType: 'pdf', blob: PDF_BYTES } }] })).toEqual([
      { type: 'text', text: '[resource file:///x: 17 bytes without a media type, not shown]' },
    ]);
    // a type most servers refuse would fail the next model call: it is described
    expect(toolOutputOf({ content: [{ type: 'image', data: 'PHN2Zz4=', mimeType: 'image/svg+xml' }] })).toEqual([
      { type: 'text', text: '[image: image/svg+xml, 5 bytes, not shown]' },
    ]);
    const resource = (uri: string, mimeType: string, blob: string) => ({
      content: [{ type: 'resource', resource: { uri, mimeType, blob } }],
    });
    expect(toolOutputOf(resource('file:///a.zip', 'application/zip', 'UEsD'))).toEqual([
      { type: 'text', text: '[resource file:///a.zip: application/zip, 3 bytes, not shown]' },
    ]);
    expect(toolOutputOf(resource('file:///t.csv', 'text/csv', 'YSxi'))).toEqual([
      { type: 'file', mediaType: 'text/csv', data: 'YSxi', filename: 't.csv' },
    ]);
  });

  it('validates arguments against the tool JSON Schema before sending them', async () => {
    const mcp = await open();
    const { toolResult } = await runWith(mcp.tools, { name: 'record', args: { label: 42 } });
    expect(toolResult).toMatchObject({ isError: true });
    expect(String(toolResult?.output)).toMatch(/invalid arguments for "record".*label.*string/);
    expect(effectLines()).toEqual([]);
  });

  it('keeps only the tools the filter names', async () => {
    const byName = await open({ filter: ['echo', 'add'] });
    expect(byName.tools.map((t) => t.name).sort()).toEqual(['add', 'echo']);
    const byPredicate = await open({ filter: (t) => t.name.startsWith('record') });
    expect(byPredicate.tools.map((t) => t.name).sort()).toEqual(['record', 'record_then_crash']);
  });

  it('prefixes names with the server name on collision, and everywhere with `prefix`', async () => {
    const mine = tool({ name: 'echo', description: 'my echo', parameters: z.object({}), execute: () => 'mine' });
    const first = await open({ alongside: [mine] });
    expect(first.tools.map((t) => t.name)).toContain('http-server_echo');
    expect(first.tools.map((t) => t.name)).toContain('add');
    const second = await open({ name: 'other', alongside: [mine, ...first.tools] });
    expect(second.tools.map((t) => t.name)).toContain('other_echo');
    expect(second.tools.map((t) => t.name)).toContain('other_add');
    // the tools of all three fit in one agent
    expect(() => new ReActAgent({ name: 'a', model: new ScriptedModel(), tools: [mine, ...first.tools, ...second.tools] })).not.toThrow();
    const prefixed = await open({ prefix: 'docs' });
    expect(prefixed.tools.map((t) => t.name)).toContain('docs_echo');
    expect(prefixed.tools.every((t) => t.name.startsWith('docs_'))).toBe(true);
    await expect(open({ prefix: 'bad prefix!' })).rejects.toThrow(ConfigurationError);
  });

  it('reads the list again on notifications/tools/list_changed; a removed tool answers with an error result', async () => {
    const changes: string[][] = [];
    const mcp = await open({ onToolsChanged: (tools) => changes.push(tools.map((t) => t.name)) });
    const echo = named(mcp, 'echo');
    expect(mcp.tools.map((t) => t.name)).not.toContain('late');
    await named(mcp, 'add_late_tool').execute({}, ctx());
    await until(() => mcp.tools.some((t) => t.name === 'late'));
    expect(changes.at(-1)).toContain('late');
    expect(await named(mcp, 'late').execute({ n: 7 }, ctx())).toBe('late 7');
    // same object across refreshes: an agent built before keeps its tools
    expect(named(mcp, 'add')).toBe(mcp.tools.find((t) => t.name === 'add'));

    await named(mcp, 'remove_echo').execute({}, ctx());
    await until(() => !mcp.tools.some((t) => t.name === 'echo'));
    const { toolResult } = await runWith([echo], { name: 'echo', args: { text: 'x' } });
    expect(toolResult).toMatchObject({ isError: true });
    expect(toolResult?.output).toContain('no longer offers the tool "echo"');
  });

  it('after the server forgot the session, the call fails as "may or may not have run" without replay, and the next one reconnects', async () => {
    const mcp = await open();
    expect(await named(mcp, 'record').execute({ label: 'one' }, ctx())).toBe('recorded one');
    server.forgetSessions();
    const { toolResult } = await runWith(mcp.tools, { name: 'record', args: { label: 'two' } });
    expect(toolResult).toMatchObject({ isError: true });
    expect(toolResult?.output).toContain('may or may not have run');
    expect(effectLines()).toEqual(['one']); // not sent again
    expect(await named(mcp, 'record').execute({ label: 'three' }, ctx())).toBe('recorded three');
    expect(effectLines()).toEqual(['one', 'three']);
  });

  it('when the server drops the session during a call, that call is not replayed', async () => {
    const mcp = await open();
    const result = named(mcp, 'record_then_crash').execute({ label: 'crash' }, ctx());
    await expect(result).rejects.toMatchObject({ name: 'McpError', kind: 'connection' });
    await expect(result).rejects.toThrow(/may or may not have run/);
    expect(effectLines()).toEqual(['crash']);
    expect(await named(mcp, 'record').execute({ label: 'after' }, ctx())).toBe('recorded after');
    expect(effectLines()).toEqual(['crash', 'after']);
  });

  it('forwards the abort signal: the server sees the request cancelled', async () => {
    const mcp = await open();
    const controller = new AbortController();
    const call = named(mcp, 'wait').execute({ label: 'w' }, ctx(controller.signal));
    await new Promise((r) => setTimeout(r, 100));
    controller.abort(new Error('stop'));
    await expect(call).rejects.toThrow();
    await until(() => effectLines().includes('cancelled w'));
  });

  it('fails clearly on a server it cannot reach, a bad config, and after close', async () => {
    await expect(mcpTools({ url: 'http://127.0.0.1:1/mcp' })).rejects.toMatchObject({ name: 'McpError', kind: 'connection' });
    await expect(mcpTools({ url: 'not a url' })).rejects.toThrow(/must be \{ stdio: \{ command/);
    await expect(mcpTools({ stdio: { command: '' } })).rejects.toThrow(ConfigurationError);
    const mcp = await open();
    const echo = named(mcp, 'echo');
    await mcp.close();
    await expect(echo.execute({ text: 'x' }, ctx())).rejects.toThrow(/were closed; open them again/);
  });

  it('timeoutMs bounds connecting to a URL that never answers', async () => {
    let requests = 0;
    const silent = createServer(() => void requests++); // accepts each request and never answers
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/mcp`;
      const attempt = mcpTools({ url }, { timeoutMs: 300 });
      await expect(attempt).rejects.toMatchObject({ name: 'McpError', kind: 'timeout' });
      await expect(attempt).rejects.toThrow(
        /did not finish connecting .* within 300 ms\. .*raise connectTimeoutMs \(timeoutMs when it is not set\)/,
      );
      expect(requests).toBe(1);
    } finally {
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('connectTimeoutMs bounds connecting apart from the call timeoutMs', async () => {
    const silent = createServer(() => undefined); // accepts each request and never answers
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/mcp`;
      const attempt = mcpTools({ url }, { timeoutMs: 30_000, connectTimeoutMs: 200 });
      const error = await attempt.catch((e: unknown) => e);
      expect(error).toBeInstanceOf(McpError);
      expect((error as McpError).kind).toBe('timeout');
      expect((error as McpError).timeoutMs).toBe(200);
      expect((error as Error).message).toMatch(/within 200 ms\. .*raise connectTimeoutMs/);
    } finally {
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('says to install @modelcontextprotocol/sdk when it is missing', async () => {
    const missing = () =>
      loadMcpSdk(() =>
        Promise.reject(Object.assign(new Error("Cannot find package '@modelcontextprotocol/sdk'"), { code: 'ERR_MODULE_NOT_FOUND' })),
      );
    const attempt = openMcpToolset({ url: server.url }, {}, missing);
    await expect(attempt).rejects.toThrow(ConfigurationError);
    await expect(attempt).rejects.toThrow(/install it \(npm install @modelcontextprotocol\/sdk\)/);
  });
});
