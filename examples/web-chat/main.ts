/**
 * A plan–execute run streamed into a web page with the AI SDK's UI message stream (offline: the
 * models are scripted). The page shows the plan, the steps, the tools and the answer, asks you to
 * approve the booking, and survives a reload mid-run (the stream is replayed from the session's log
 * and followed live).
 *
 *   pnpm build && npx tsx examples/web-chat/main.ts --serve    then open the printed URL
 *
 * Without `--serve` it plays one chat through the same HTTP routes with the AI SDK's
 * `DefaultChatTransport` (send, reconnect as a reloaded page does, approve) and exits.
 */
import { DefaultChatTransport, readUIMessageStream, type UIMessage, type UIMessageChunk } from 'ai';
import { startWebChat } from './server.js';

const serve = process.argv.includes('--serve');
const app = await startWebChat({ port: serve ? Number(process.env.PORT ?? 3000) : 0, searchMs: serve ? 1500 : 200 });

if (serve) {
  console.log(`web chat on ${app.url}  (Ctrl-C to stop)`);
} else {
  const chatId = 'example-chat';
  const transport = new DefaultChatTransport<UIMessage>({ api: `${app.url}/api/chat` });
  const read = async (stream: ReadableStream<UIMessageChunk>, message?: UIMessage) => {
    let last: UIMessage | undefined;
    for await (const m of readUIMessageStream({ stream, ...(message ? { message } : {}) })) last = m;
    return last as UIMessage;
  };
  const show = (message: UIMessage) => {
    for (const part of message.parts) {
      if (part.type === 'data-plan') console.log('  plan:', JSON.stringify((part.data as { plan: unknown }).plan));
      if (part.type === 'data-step') {
        const step = part.data as { number: number; step: string; status: string };
        console.log(`  step ${step.number}: ${step.status.padEnd(7)} ${step.step}`);
      }
      if (part.type === 'dynamic-tool') console.log(`  tool ${part.toolName}: ${part.state}`);
    }
  };
  const user: UIMessage = { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Book me a flight to Lisbon on Friday' }] };
  const common = { chatId, abortSignal: undefined, messageId: undefined } as const;

  console.log('> send:', 'Book me a flight to Lisbon on Friday');
  const first = await read(await transport.sendMessages({ ...common, trigger: 'submit-message', messages: [user] }));
  show(first);

  console.log('> reload: the reconnect route replays the run from the log');
  const replayed = await read((await transport.reconnectToStream({ chatId })) as ReadableStream<UIMessageChunk>);
  const sameId = replayed.id === first.id;
  const sameParts = JSON.stringify(replayed.parts) === JSON.stringify(first.parts);
  console.log(`  same message id: ${sameId}, same parts: ${sameParts}`);

  console.log('> approve book_flight');
  const answered: UIMessage = {
    ...replayed,
    parts: replayed.parts.map((p) =>
      p.type === 'dynamic-tool' && p.state === 'approval-requested'
        ? { ...p, state: 'approval-responded', approval: { id: p.approval.id, approved: true } }
        : p,
    ) as UIMessage['parts'],
  };
  const final = await read(await transport.sendMessages({ ...common, trigger: 'submit-message', messages: [user, answered] }), answered);
  show(final);
  const answer = final.parts.filter((p) => p.type === 'text').at(-1);
  const answerText = answer?.type === 'text' ? answer.text : '';
  console.log('answer:', answerText || '(none)');
  await app.close();
  // The chat the page would show: a reload that changed the message (the AI SDK client would
  // duplicate or reset it) or no answer fails the run, so the examples test catches it.
  const problems = [
    ...(sameId ? [] : [`the replayed message id ${replayed.id} is not the first stream's ${first.id}`]),
    ...(sameParts ? [] : ['the replayed message has other parts than the first stream']),
    ...(final.id === first.id ? [] : [`the approved run's message id ${final.id} is not the first stream's ${first.id}`]),
    ...(answerText ? [] : ['the approved run ended without an answer (no text part)']),
  ];
  for (const problem of problems) console.error(`web-chat failed: ${problem}`);
  if (problems.length) process.exitCode = 1;
}
