// A user's app on today's majors: Node 24, AI SDK 7 (provider packages' language models of
// specification v4) and TypeScript 7, using our packages as installed from their tarballs.
import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { aiSdkModel } from '@replan/ai-sdk';
import { type ChatModel, Runner, tool } from '@replan/core';
import { createPlanExecuteAgent } from '@replan/planexecute';
import { OpenAIChatModel } from '@replan/providers';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { z } from 'zod';
import { dbosLaunches, throughA2a, throughMcp } from './served.js';

// One local server speaks both Chat Completions and Anthropic's Messages API under this base URL.
const baseURL = process.env.FAKE_MODEL_URL;
if (!baseURL) throw new Error('set FAKE_MODEL_URL');

const languageModel = createOpenAICompatible({ name: 'local', baseURL, apiKey: 'k' })('local-model');
const model = aiSdkModel(languageModel);

const add = tool({
  name: 'add',
  description: 'Adds two numbers.',
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => a + b,
});

const claude = createAnthropic({ baseURL, apiKey: 'k' })('claude-local');

const runWith = async (chatModel: ChatModel, stream = false) => {
  const agent = createPlanExecuteAgent({ model: chatModel, tools: [add] });
  const result = await new Runner({ agent, appName: 'current-majors' }).run({ userId: 'u', input: 'Add 2 and 3.', stream }).result();
  return { status: result.status, output: result.output, modelCalls: result.modelCalls };
};

// The agent that MCP and A2A serve (served.ts): the same plan–execute agent, under its own name.
const served = new Runner({ agent: createPlanExecuteAgent({ name: 'adder', model, tools: [add] }), appName: 'current-majors-served' });

// The openai SDK @replan/providers loads (the app's one copy, openai 7 here).
const openaiEntry = createRequire(import.meta.resolve('@replan/providers')).resolve('openai');
const openaiDir = openaiEntry.slice(0, openaiEntry.lastIndexOf('/node_modules/openai/') + '/node_modules/openai'.length);
const openaiVersion = (JSON.parse(readFileSync(`${openaiDir}/package.json`, 'utf8')) as { version: string }).version;

console.log(
  JSON.stringify({
    node: process.version,
    specification: (languageModel as { specificationVersion?: string }).specificationVersion,
    aiSdk: await runWith(model),
    anthropicSpecification: (claude as { specificationVersion?: string }).specificationVersion,
    // @ai-sdk/anthropic's JSON replies, then its SSE stream (a streamed run calls doStream).
    anthropic: await runWith(aiSdkModel(claude)),
    anthropicStreamed: await runWith(aiSdkModel(claude), true),
    openai: openaiVersion,
    providers: await runWith(new OpenAIChatModel({ model: 'local-model', baseURL, apiKey: 'k' })),
    mcp: await throughMcp(model, served),
    a2a: await throughA2a(model, served),
    dbos: dbosLaunches(served),
  }),
);
