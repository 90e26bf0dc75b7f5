// A user's app on today's majors: Node 24, AI SDK 7 (a provider package's language model of
// specification v4) and TypeScript 7, using our packages as installed from their tarballs.
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { aiSdkModel } from '@replan/ai-sdk';
import { Runner, tool } from '@replan/core';
import { createPlanExecuteAgent } from '@replan/planexecute';
import { OpenAIChatModel } from '@replan/providers';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { z } from 'zod';

const baseURL = process.env.FAKE_OPENAI_URL;
if (!baseURL) throw new Error('set FAKE_OPENAI_URL');

const languageModel = createOpenAICompatible({ name: 'local', baseURL, apiKey: 'k' })('local-model');
const model = aiSdkModel(languageModel);

const add = tool({
  name: 'add',
  description: 'Adds two numbers.',
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => a + b,
});

const runWith = async (chatModel: typeof model | OpenAIChatModel) => {
  const agent = createPlanExecuteAgent({ model: chatModel, tools: [add] });
  const result = await new Runner({ agent, appName: 'current-majors' }).run({ userId: 'u', input: 'Add 2 and 3.' }).result();
  return { status: result.status, output: result.output, modelCalls: result.modelCalls };
};

// The openai SDK @replan/providers loads (the app's one copy, openai 7 here).
const openaiEntry = createRequire(import.meta.resolve('@replan/providers')).resolve('openai');
const openaiDir = openaiEntry.slice(0, openaiEntry.lastIndexOf('/node_modules/openai/') + '/node_modules/openai'.length);
const openaiVersion = (JSON.parse(readFileSync(`${openaiDir}/package.json`, 'utf8')) as { version: string }).version;

console.log(
  JSON.stringify({
    node: process.version,
    specification: (languageModel as { specificationVersion?: string }).specificationVersion,
    aiSdk: await runWith(model),
    openai: openaiVersion,
    providers: await runWith(new OpenAIChatModel({ model: 'local-model', baseURL, apiKey: 'k' })),
  }),
);
