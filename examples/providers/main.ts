/**
 * OpenAIChatModel in a ReAct tool loop, showing the model's reasoning and what goes back to the
 * server on the next turn.
 *
 * Offline by default: a tiny local server plays a Claude model behind LiteLLM (signed
 * `thinking_blocks`). With OPENAI_API_KEY and/or OPENAI_BASE_URL set it uses that server instead
 * (model from REPLAN_MODEL).
 * Run: pnpm build && npx tsx examples/providers/main.ts
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { type AgentEvent, ReActAgent, Runner, tool } from '@replan/core';
import { OpenAIChatModel, modelFromEnv } from '@replan/providers';

const weather = tool({
  name: 'get_weather',
  description: 'Current weather of a city',
  parameters: z.object({ city: z.string() }),
  execute: ({ city }) => ({ city, tempC: 21, sky: 'clear' }),
});

/** Two scripted turns in LiteLLM's Anthropic shape: thinking + a tool call, then the answer. */
const turns = [
  [
    { role: 'assistant', reasoning_content: 'The user wants ', thinking_blocks: [{ type: 'thinking', thinking: 'The user wants ' }] },
    { reasoning_content: 'the weather in Lyon.', thinking_blocks: [{ type: 'thinking', thinking: 'the weather in Lyon.' }] },
    { thinking_blocks: [{ type: 'thinking', thinking: '', signature: 'EqQBCkgIARAB…signature' }] },
    { tool_calls: [{ index: 0, id: 'toolu_01', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Lyon"}' } }] },
  ],
  [{ role: 'assistant', content: 'It is 21°C and clear in Lyon.' }],
];

/** The request bodies the local server received, as the wire sends them. */
interface ReceivedBody {
  messages: { role: string; thinking_blocks?: unknown; tool_calls?: unknown }[];
}

async function startScriptedServer(received: ReceivedBody[]): Promise<{ url: string; close: () => void }> {
  let turn = 0;
  const server = createServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    received.push(JSON.parse(body));
    const deltas = turns[turn++] ?? [{ content: 'done' }];
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    for (const delta of deltas) res.write(`data: ${JSON.stringify({ choices: [{ index: 0, delta, finish_reason: null }] })}\n\n`);
    const finish = deltas.some((d) => 'tool_calls' in d) ? 'tool_calls' : 'stop';
    res.write(
      `data: ${JSON.stringify({ choices: [{ index: 0, delta: {}, finish_reason: finish }], usage: { prompt_tokens: 40, completion_tokens: 12 } })}\n\n`,
    );
    res.end('data: [DONE]\n\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/v1`, close: () => server.close() };
}

function show(event: AgentEvent): void {
  if (event.partial) return;
  for (const block of event.message?.content ?? []) {
    if (block.type === 'reasoning')
      console.log(`🧠 ${block.redacted ? '[redacted]' : block.reasoning}${block.signature ? `  (signed, ${block.provider})` : ''}`);
    if (block.type === 'text' && block.text && event.message?.role === 'assistant') console.log(`💬 ${block.text}`);
    if (block.type === 'tool_call') console.log(`🔧 ${block.name}(${JSON.stringify(block.args)})`);
    if (block.type === 'tool_result') console.log(`✓  ${block.name} → ${JSON.stringify(block.output)}`);
  }
  if (event.error) console.log(`✗ ${event.error.name}: ${event.error.message}`);
}

const received: ReceivedBody[] = [];
const real = modelFromEnv();
const local = real ? undefined : await startScriptedServer(received);
const model = real ?? new OpenAIChatModel({ model: 'claude-sonnet-4-5', baseURL: local!.url, apiKey: 'offline' });
console.log(`model: ${model.model} (profile ${model.profile})${real ? '' : ' — offline, scripted LiteLLM server'}\n`);

const agent = new ReActAgent({ name: 'forecaster', model, tools: [weather], instruction: 'Answer weather questions with the tool.' });
const run = new Runner({ agent, appName: 'providers-example' }).run({ userId: 'demo', input: 'How is the weather in Lyon?', stream: true });
for await (const event of run) show(event);
const result = await run.result();
console.log(`\nstatus: ${result.status}, tokens: ${result.usage.inputTokens} in / ${result.usage.outputTokens} out`);

if (local) {
  const assistant = received[1]?.messages.find((m) => m.role === 'assistant');
  console.log(
    '\nsent back on the next turn:',
    JSON.stringify({ thinking_blocks: assistant?.thinking_blocks, tool_calls: assistant?.tool_calls }, null, 2),
  );
  local.close();
}
if (result.status !== 'completed') process.exitCode = 1;
