// One local server for the current-majors app's models: it speaks OpenAI's Chat Completions
// (`POST /v1/chat/completions`, JSON) and Anthropic's Messages API (`POST /v1/messages`, JSON or named
// SSE events when `stream` is set), and plays a planner, an executor and a replanner by the tools each
// request offers (never by prompt wording): `respond` offered → the answer, `plan` → a one-step plan,
// else the executor's one tool (`add`, or the same agent served over MCP or A2A) until a tool result
// came back, then the step's report.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the server answered: which API, and the names of the tools it offered. */
export interface ModelRequest {
  readonly api: 'openai' | 'anthropic';
  readonly tools: readonly string[];
  readonly stream: boolean;
}

export interface FakeModelServer {
  /** `http://127.0.0.1:<port>/v1`: the base URL of both APIs. */
  readonly baseURL: string;
  readonly requests: readonly ModelRequest[];
  close(): Promise<void>;
}

type Turn = { readonly tool: string; readonly args: unknown } | { readonly text: string };

/** The arguments of each executor tool: `add` and the MCP-served agent take numbers, an A2A agent tool `{ input }`. */
const ARGS: Readonly<Record<string, unknown>> = { add: { a: 2, b: 3 }, mcp_add: { a: 2, b: 3 }, a2a_add: { input: 'Add 2 and 3.' } };

/** The turn a role plays, from the tools offered and whether a tool result came back. */
function turn(tools: ReadonlySet<string>, sawToolResult: boolean): Turn {
  if (tools.has('respond')) return { tool: 'respond', args: { response: 'The sum is 5.' } };
  if (tools.has('plan')) return { tool: 'plan', args: { steps: ['Add 2 and 3 with the add tool.'] } };
  const tool = [...tools].find((name) => name in ARGS);
  if (sawToolResult || !tool) return { text: 'The add tool returned 5.' };
  return { tool, args: ARGS[tool] };
}

interface ChatBody {
  readonly tools?: readonly { readonly function: { readonly name: string } }[];
  readonly messages: readonly { readonly role: string }[];
}

function chatCompletion(body: ChatBody, n: number) {
  const t = turn(
    new Set(body.tools?.map((x) => x.function.name)),
    body.messages.some((m) => m.role === 'tool'),
  );
  const message =
    'text' in t
      ? { role: 'assistant', content: t.text }
      : {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: `call_${t.tool}`, type: 'function', function: { name: t.tool, arguments: JSON.stringify(t.args) } }],
        };
  return {
    id: `chatcmpl-${n}`,
    object: 'chat.completion',
    created: 0,
    model: 'local-model',
    choices: [{ index: 0, message, finish_reason: 'text' in t ? 'stop' : 'tool_calls' }],
    usage: { prompt_tokens: 20, completion_tokens: 5, total_tokens: 25 },
  };
}

interface MessagesBody {
  readonly tools?: readonly { readonly name: string }[];
  readonly messages: readonly { readonly role: string; readonly content: string | readonly { readonly type: string }[] }[];
  readonly stream?: boolean;
}

const usage = { input_tokens: 20, output_tokens: 5 };

/** Anthropic's reply: one message (JSON), or the same message as the SSE events its streaming API sends. */
function anthropicReply(body: MessagesBody, n: number, res: ServerResponse): void {
  const sawToolResult = body.messages.some((m) => typeof m.content !== 'string' && m.content.some((b) => b.type === 'tool_result'));
  const t = turn(new Set(body.tools?.map((x) => x.name)), sawToolResult);
  const block = 'text' in t ? { type: 'text', text: t.text } : { type: 'tool_use', id: `toolu_${n}`, name: t.tool, input: t.args };
  const stopReason = 'text' in t ? 'end_turn' : 'tool_use';
  const message = (content: unknown[], stop_reason: string | null) => ({
    id: `msg_${n}`,
    type: 'message',
    role: 'assistant',
    model: 'claude-local',
    content,
    stop_reason,
    stop_sequence: null,
    usage,
  });
  if (!body.stream) {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(message([block], stopReason)));
    return;
  }
  const events: [string, Record<string, unknown>][] = [
    ['message_start', { message: message([], null) }],
    ['content_block_start', { index: 0, content_block: 'text' in t ? { type: 'text', text: '' } : { ...block, input: {} } }],
    [
      'content_block_delta',
      {
        index: 0,
        delta: 'text' in t ? { type: 'text_delta', text: t.text } : { type: 'input_json_delta', partial_json: JSON.stringify(t.args) },
      },
    ],
    ['content_block_stop', { index: 0 }],
    ['message_delta', { delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: usage.output_tokens } }],
    ['message_stop', {}],
  ];
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  res.end(events.map(([event, data]) => `event: ${event}\ndata: ${JSON.stringify({ type: event, ...data })}\n\n`).join(''));
}

/** Starts the server on 127.0.0.1 (any free port). */
export async function startFakeModelServer(): Promise<FakeModelServer> {
  const requests: ModelRequest[] = [];
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    let text = '';
    for await (const chunk of req) text += chunk;
    if (req.url === '/v1/chat/completions') {
      const body = JSON.parse(text) as ChatBody;
      requests.push({ api: 'openai', tools: (body.tools ?? []).map((t) => t.function.name), stream: false });
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(chatCompletion(body, requests.length)));
    } else if (req.url === '/v1/messages') {
      const body = JSON.parse(text) as MessagesBody;
      requests.push({ api: 'anthropic', tools: (body.tools ?? []).map((t) => t.name), stream: body.stream === true });
      anthropicReply(body, requests.length, res);
    } else res.writeHead(404).end();
  };
  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => res.writeHead(500).end(String(error)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
