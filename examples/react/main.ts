/**
 * A ReAct agent with two local tools, offline: a ScriptedModel plays the model's part.
 * Run: pnpm build && npx tsx examples/react/main.ts
 */
import { z } from 'zod';
import { type AgentEvent, ReActAgent, Runner, eventKind, tool } from '@replan/core';
import { ScriptedModel, callTools } from '@replan/core/testing';

const prices: Record<string, number> = { apple: 0.5, bread: 2.25, coffee: 7.9 };

const lookupPrice = tool({
  name: 'lookup_price',
  description: 'Price of one item in EUR',
  parameters: z.object({ item: z.string() }),
  execute: ({ item }) => {
    const price = prices[item.toLowerCase()];
    if (price === undefined) throw new Error(`no price for "${item}"`);
    return price;
  },
});

const multiply = tool({
  name: 'multiply',
  description: 'Multiply two numbers',
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => Math.round(a * b * 100) / 100,
});

const model = new ScriptedModel({
  latencyMs: 150,
  responses: [
    callTools({ name: 'lookup_price', args: { item: 'coffee' } }, { name: 'lookup_price', args: { item: 'bread' } }),
    callTools({ name: 'multiply', args: { a: 7.9, b: 3 } }, { name: 'multiply', args: { a: 2.25, b: 2 } }),
    'Three bags of coffee cost €23.70 and two loaves of bread €4.50: €28.20 in all.',
  ],
});

const agent = new ReActAgent({
  name: 'shopper',
  model,
  tools: [lookupPrice, multiply],
  instruction: 'Answer shopping questions. Use the tools for prices and arithmetic.',
});

/** Prints an event; `eventKind` gives a union discriminated by `kind`, so each case is narrowed. */
function show(event: AgentEvent): void {
  const who = `\x1b[36m${event.author.padEnd(8)}\x1b[0m`;
  const k = eventKind(event);
  switch (k.kind) {
    case 'user-message':
      console.log(`${who} › ${k.message.content.map((b) => (b.type === 'text' ? b.text : '')).join('')}`);
      return;
    case 'tool-calls':
      for (const call of k.calls) console.log(`${who} 🔧 ${call.name}(${JSON.stringify(call.args)})`);
      return;
    case 'tool-results':
      for (const r of k.results) console.log(`${who} ${r.isError ? '✗' : '✓'} ${r.name} → ${JSON.stringify(r.output)}`);
      return;
    case 'answer':
      console.log(`${who} 💬 ${k.final.text}`);
      return;
    case 'error':
      console.log(`${who} ✗ ${k.error.name}: ${k.error.message}`);
      return;
    default:
      return; // cursors, the end marker, state changes: nothing to show here
  }
}

const runner = new Runner({ agent, appName: 'react-example' });
const run = runner.run({ userId: 'demo', input: 'What do 3 bags of coffee and 2 loaves of bread cost?' });
for await (const event of run) show(event);
const result = await run.result();
console.log(
  `\nstatus: ${result.status}, model calls: ${result.modelCalls}, tokens: ${result.usage.inputTokens + result.usage.outputTokens}`,
);
if (result.status !== 'completed') process.exitCode = 1;
else console.log(`answer: ${result.output}`);
