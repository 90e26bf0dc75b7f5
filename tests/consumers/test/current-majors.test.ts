import { cp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { command, succeed } from '../../../scripts/release/commands.js';
import { nodeFromRegistry } from '../../../scripts/release/entry-point-project.js';
import { freshDir } from '../../../scripts/release/scratch-dir.js';
import { installTarballs, packTarballs } from '../../../scripts/release/tarballs.js';

// Today's majors, as a developer starting a project now has them: Node 24 (from the npm registry),
// AI SDK 7 with a real provider package (`@ai-sdk/openai-compatible`, a language model of
// specification v4) and TypeScript 7 type-checking a strict nodenext app that uses our tarballs.
// The provider talks to a local OpenAI-compatible server that plays a planner, an executor and a
// replanner by the tools each request offers (never by prompt wording).
const APP = fileURLToPath(new URL('../current-majors/', import.meta.url));
const MAJORS = { ai: '^7.0.0', '@ai-sdk/openai-compatible': '^3.0.0', typescript: '^7.0.0', openai: '^7.0.0' } as const;

interface ChatRequest {
  readonly tools?: readonly { readonly function: { readonly name: string } }[];
  readonly messages: readonly { readonly role: string }[];
}

/** The fake model's reply to one chat completion request: a tool call or text. */
function reply(body: ChatRequest) {
  const tools = new Set(body.tools?.map((t) => t.function.name));
  const call = (name: string, args: unknown) => ({
    role: 'assistant',
    content: null,
    tool_calls: [{ id: `call_${name}`, type: 'function', function: { name, arguments: JSON.stringify(args) } }],
  });
  if (tools.has('respond')) return call('respond', { response: 'The sum is 5.' });
  if (tools.has('plan')) return call('plan', { steps: ['Add 2 and 3 with the add tool.'] });
  return body.messages.some((m) => m.role === 'tool')
    ? { role: 'assistant', content: 'The add tool returned 5.' }
    : call('add', { a: 2, b: 3 });
}

describe('today’s majors: Node 24, AI SDK 7 and TypeScript 7 in a fresh npm project', () => {
  let root: string;
  let server: Server;
  let url: string;
  const requests: ChatRequest[] = [];

  beforeAll(async () => {
    root = await freshDir('majors');
    const tarballs = await packTarballs(join(root, 'tarballs'));
    const app = join(root, 'app');
    await cp(APP, app, { recursive: true });
    // `overrides` keeps one openai in the app (`$openai`: the app's own): @replan/providers (openai ^6, for Node 20) uses openai 7.
    await writeFile(
      join(app, 'package.json'),
      JSON.stringify({ name: 'current-majors-app', private: true, type: 'module', overrides: { openai: '$openai' } }),
    );
    // ai 7 and openai 7 declare Node >= 22; npm installs them from this Node 20 with a warning.
    await installTarballs(app, tarballs, MAJORS);
    server = createServer((req, res) => {
      let text = '';
      req.on('data', (c) => (text += c));
      req.on('end', () => {
        const body = JSON.parse(text) as ChatRequest;
        requests.push(body);
        res.setHeader('content-type', 'application/json');
        res.end(
          JSON.stringify({
            id: `chatcmpl-${requests.length}`,
            object: 'chat.completion',
            created: 0,
            model: 'local-model',
            choices: [{ index: 0, message: reply(body), finish_reason: 'stop' }],
            usage: { prompt_tokens: 20, completion_tokens: 5, total_tokens: 25 },
          }),
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  }, 300_000);

  afterAll(async () => {
    await new Promise((r) => server?.close(r));
    if (root) await rm(root, { recursive: true, force: true });
  });

  it('installs AI SDK 7, openai 7 and TypeScript 7 beside our packages', async () => {
    const version = async (name: string) =>
      (JSON.parse(await readFile(join(root, 'app/node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
    expect(await version('ai')).toMatch(/^7\./);
    expect(await version('typescript')).toMatch(/^7\./);
    expect(await version('openai')).toMatch(/^7\./);
  });

  it('type-checks the strict nodenext app with TypeScript 7, and runs plan–execute on Node 24 through an AI SDK 7 model and through openai 7', async () => {
    const app = join(root, 'app');
    await succeed(process.execPath, [join(app, 'node_modules/typescript/bin/tsc'), '-p', app], app);
    const node = nodeFromRegistry(24);
    const run = await command(node.file, [...node.args, join(app, 'dist/main.js')], app, { FAKE_OPENAI_URL: url });
    expect(run.code, run.output).toBe(0);
    const printed = JSON.parse(run.output.split('\n').find((l) => l.startsWith('{"node"')) ?? '{}') as Record<string, unknown>;
    const done = { status: 'completed', output: 'The sum is 5.', modelCalls: 4 };
    expect(printed).toMatchObject({ specification: 'v4', aiSdk: done, providers: done });
    expect(String(printed.node)).toMatch(/^v24\./);
    expect(String(printed.openai)).toMatch(/^7\./);
    // Each run: planner, executor (the tool call, then its report) and replanner reached the server.
    const roles = ['plan', 'add', 'add', 'plan,respond'];
    expect(requests.map((r) => [...new Set(r.tools?.map((t) => t.function.name))].sort().join(','))).toEqual([...roles, ...roles]);
  });
});
