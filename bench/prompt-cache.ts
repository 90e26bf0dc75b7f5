/**
 * Prompt caching: a 10-step linear run and an 8-step graph run of `createPlanExecuteAgent` through
 * the real `OpenAIChatModel` against a fake OpenAI server on 127.0.0.1 that bills prefix caching
 * the way OpenAI documents it (the identical leading ≥ 1,024 tokens of a request cached, in steps of
 * 128; requests routed by `prompt_cache_key`, else by their first 256 tokens; a prefix cached once
 * its request is answered). Before: the previous prompt order (plan before results) and no cache
 * key; after: the library's defaults (results before the plan, a key per session and role).
 * Run: pnpm bench prompt-cache (or: pnpm build && npx tsx bench/prompt-cache.ts)
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { type Message, promptCache, Runner, systemMessage, tool, userMessage } from '@replan/core';
import { quoteValue } from '@replan/core/agent-kit';
import {
  createExecutor,
  createPlanExecuteAgent,
  createPlanner,
  createReplanner,
  type ExecutionContext,
  ExecutorPrompt,
  type ExecutorInput,
  fillTemplate,
  formatContextView,
  ReplannerPrompt,
  stepText,
} from '@replan/planexecute';
import { OpenAIChatModel } from '@replan/providers';
import { fmt, table } from './measure.js';

const CHARS_PER_TOKEN = 4;
const MIN_CACHED = 1024;
const CACHE_STEP = 128;
const ROUTING_TOKENS = 256;
/** USD per million tokens, as a current OpenAI model is priced: cached input at a quarter. */
const PRICES = { 'bench-model': { inputPerMillion: 2, cachedInputPerMillion: 0.5, outputPerMillion: 8 } };

type Json = Record<string, unknown>;

/** The request as the server's tokenizer sees it: tools first, then every message in order. */
function renderedPrompt(body: Json): string {
  const messages = (body.messages as Json[]).map(
    (m) =>
      `<|${m.role}|>${typeof m.content === 'string' ? m.content : JSON.stringify(m.content ?? '')}${m.tool_calls ? JSON.stringify(m.tool_calls) : ''}${m.tool_call_id ?? ''}`,
  );
  return `${JSON.stringify(body.tools ?? [])}${messages.join('')}`;
}

const commonChars = (a: string, b: string) => {
  let i = 0;
  while (i < a.length && i < b.length && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
};

/** The fake server's prefix cache and the role scripts of the two runs. */
class PrefixCachingServer {
  private readonly buckets = new Map<string, string[]>();
  private replannerCalls = 0;
  private readonly server = createServer((req, res) => void this.handle(req, res));
  baseURL = '';

  constructor(private readonly graph: boolean) {}

  async listen(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.baseURL = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const body = JSON.parse(raw) as Json;
    const prompt = renderedPrompt(body);
    const bucketKey =
      typeof body.prompt_cache_key === 'string'
        ? `key:${body.prompt_cache_key}`
        : `prefix:${prompt.slice(0, ROUTING_TOKENS * CHARS_PER_TOKEN)}`;
    const bucket = this.buckets.get(bucketKey) ?? [];
    this.buckets.set(bucketKey, bucket);
    const promptTokens = Math.ceil(prompt.length / CHARS_PER_TOKEN);
    const shared = Math.floor(Math.max(0, ...bucket.map((p) => commonChars(p, prompt))) / CHARS_PER_TOKEN);
    const cached = shared >= MIN_CACHED ? Math.min(promptTokens, Math.floor(shared / CACHE_STEP) * CACHE_STEP) : 0;
    const message = this.answer(body);
    // The prefix is cached once the request is processed: requests in flight at the same time miss it.
    await new Promise((r) => setTimeout(r, 5));
    bucket.push(prompt);
    const completionTokens = Math.ceil(JSON.stringify(message).length / CHARS_PER_TOKEN);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        id: 'chatcmpl-bench',
        object: 'chat.completion',
        created: 1,
        model: 'bench-model',
        choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: message.tool_calls ? 'tool_calls' : 'stop' }],
        usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, prompt_tokens_details: { cached_tokens: cached } },
      }),
    );
  }

  private answer(body: Json): Json {
    const messages = body.messages as Json[];
    const system = String(messages[0]?.content ?? '');
    const call = (name: string, args: unknown) => ({
      content: null,
      tool_calls: [{ id: `call_${name}_${messages.length}`, type: 'function', function: { name, arguments: JSON.stringify(args) } }],
    });
    if (system.includes('planning agent')) return call('plan', this.graph ? GRAPH_PLAN : { steps: LINEAR_STEPS });
    if (system.includes('executor agent')) {
      const task = String(messages.findLast((m) => m.role === 'user')?.content ?? '').split(/## YOUR (?:STEP|TASK)\n/)[1] ?? '';
      if (messages.at(-1)?.role !== 'tool') return call('search_archive', { query: task.slice(0, 80) });
      return { content: stepResult(task) };
    }
    this.replannerCalls++;
    if (this.graph || this.replannerCalls >= LINEAR_STEPS.length) return call('respond', { response: 'The report is complete.' });
    return call('plan', { steps: LINEAR_STEPS.slice(this.replannerCalls) });
  }
}

const LINEAR_STEPS = Array.from({ length: 10 }, (_, i) => `Research topic ${i + 1} of the brief and note every figure with its source.`);
const GRAPH_PLAN = {
  steps: [
    ...Array.from({ length: 6 }, (_, i) => ({ id: `r${i + 1}`, task: `Research region ${i + 1} of the brief.`, dependsOn: [] })),
    { id: 'compare', task: 'Compare the regions: $r1 $r2 $r3 $r4 $r5 $r6', dependsOn: ['r1', 'r2', 'r3', 'r4', 'r5', 'r6'] },
    { id: 'report', task: 'Write the report from $compare', dependsOn: ['compare'] },
  ],
};

const sentence = 'The archive lists revenue, staff and sites per quarter, each with the filing it comes from. ';
const stepResult = (task: string) => `Findings for "${task.slice(0, 60)}": ${sentence.repeat(12)}`;
const OBJECTIVE = `Prepare a briefing on the company's ten business topics. ${'Each section must cite its figures, name the filing and say what changed since the year before. '.repeat(24)}`;

const toolSchemaText = 'Search the filings archive. Returns matching passages with their filing id, date and page. '.repeat(6);
const tools = ['search_archive', 'read_filing', 'list_filings'].map((name) =>
  tool({
    name,
    description: `${name}: ${toolSchemaText}`,
    parameters: z.object({
      query: z.string().describe('Words to look for; quote phrases'),
      year: z.number().optional().describe('Only filings of this year'),
      limit: z.number().optional().describe('Most passages returned (default 10)'),
    }),
    execute: ({ query }) => `Passages for "${query}": ${sentence.repeat(16)}`,
  }),
);

/** The executor prompt as it was before: the plan, then the completed steps, then the step. */
function oldExecutorPrompt(input: ExecutorInput): Message[] {
  const task = `## PLAN\n${JSON.stringify(input.plan, null, 2)}\n\n## COMPLETED STEPS AND RESULTS\n${input.context ? formatContextView(input.context) : '(none yet)'}\n\n## YOUR STEP\n${quoteValue(stepText(input.step))}`;
  return [systemMessage(ExecutorPrompt.system), ...input.userInput, userMessage(task)];
}

/** The replanner prompt as it was before: the plan, then the completed steps. */
function oldReplannerPrompt(input: ExecutionContext): Message[] {
  const tools = { planTool: 'plan', respondTool: 'respond' };
  const task = `## CURRENT PLAN\n${JSON.stringify(input.plan, null, 2)}\n\n## COMPLETED STEPS AND RESULTS\n${input.context ? formatContextView(input.context) : '(none yet)'}\n\nDecide now: call "respond" or "plan".`;
  return [systemMessage(fillTemplate(ReplannerPrompt.system, tools)), ...input.userInput, userMessage(task)];
}

interface Figures {
  calls: number;
  input: number;
  cached: number;
  cost: number;
}

async function run(graph: boolean, after: boolean): Promise<Figures> {
  const server = new PrefixCachingServer(graph);
  await server.listen();
  try {
    const model = new OpenAIChatModel({ model: 'bench-model', baseURL: server.baseURL, apiKey: 'k', profile: 'openai', maxRetries: 0 });
    const mode = graph ? ('graph' as const) : ('linear' as const);
    const middleware = after ? [promptCache()] : [];
    const agent = createPlanExecuteAgent({
      mode,
      planner: createPlanner({ model, tools, middleware }),
      executor: createExecutor({
        model,
        tools,
        middleware,
        ...(after || graph ? {} : { buildInput: oldExecutorPrompt }),
      }),
      replanner: createReplanner({ model, middleware, ...(after || graph ? {} : { buildInput: oldReplannerPrompt }) }),
      maxIterations: 12,
    });
    const result = await new Runner({ agent, appName: 'bench', prices: PRICES }).run({ userId: 'u', input: OBJECTIVE }).result();
    if (result.status !== 'completed') throw new Error(`bench run ended ${result.status}: ${result.error?.message}`);
    return {
      calls: result.modelCalls,
      input: result.usage.inputTokens,
      cached: result.usage.cachedTokens ?? 0,
      cost: result.cost,
    };
  } finally {
    await server.close();
  }
}

export async function promptCacheBench(): Promise<string> {
  const rows: (string | number)[][] = [];
  for (const [name, graph] of [
    ['10-step linear', false],
    ['8-step graph', true],
  ] as const) {
    for (const after of [false, true]) {
      const f = await run(graph, after);
      rows.push([
        name,
        after ? 'after: promptCache() on every role (key per session and role)' : 'before: previous prompts, no key',
        f.calls,
        `${fmt(f.input / 1000)}k`,
        `${fmt(f.cached / 1000)}k`,
        `${fmt((100 * f.cached) / f.input)}%`,
        `$${f.cost.toFixed(4)}`,
      ]);
    }
  }
  return [
    '### Input tokens served from a prefix cache (fake OpenAI server; $2 / $0.50 cached / $8 per million tokens)',
    '',
    table(['run', 'prompts', 'model calls', 'input tokens', 'cached', 'share cached', 'cost'], rows),
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await promptCacheBench());
