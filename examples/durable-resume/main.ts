/**
 * Durable sessions: a run stops for a human's approval, its session is kept in files, and a new
 * Runner (as another process would) resumes it; then a run is aborted mid tool call and resumed
 * without redoing what finished. Offline: a ScriptedModel plays the model.
 * Run: pnpm build && npx tsx examples/durable-resume/main.ts
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { type Agent, FileSessionStore, messageText, ReActAgent, Runner, stringifyToolOutput, tool, toolResultsOf } from '@replan/core';
import { ScriptedModel, callTools } from '@replan/core/testing';

const dir = mkdtempSync(join(tmpdir(), 'replan-durable-'));
const ledger: string[] = []; // the side effects, to show each happens once

const transfer = tool({
  name: 'transfer',
  description: 'Transfer money to an account',
  parameters: z.object({ to: z.string(), amount: z.number().positive() }),
  // Large transfers wait for a human; the run stops and can be resumed anywhere.
  needsApproval: ({ amount }) => amount > 100,
  execute: ({ to, amount }, ctx) => {
    // ctx.idempotencyKey is stable across resumes: a real payment API would dedupe on it.
    if (!ledger.includes(ctx.idempotencyKey)) ledger.push(ctx.idempotencyKey);
    return `sent ${amount} EUR to ${to}`;
  },
});

const slowReport = tool({
  name: 'monthly_report',
  description: 'Builds the monthly report (slow)',
  parameters: z.object({ month: z.string() }),
  execute: async ({ month }, ctx) => {
    await new Promise((resolve, reject) => {
      const timer = setTimeout(resolve, 300);
      const stop = () => {
        clearTimeout(timer);
        reject(ctx.signal.reason);
      };
      ctx.signal.addEventListener('abort', stop, { once: true });
    });
    return `report for ${month}: 3 transfers`;
  },
});

/**
 * A scripted model whose answers depend on the conversation, as a resumed process needs: it calls
 * a tool for the request, then reports what the tool returned (a refusal reads as a refusal).
 */
const model = new ScriptedModel({
  respond: (request) => {
    const last = request.messages.at(-1);
    const text = messageText(last ?? { role: 'user', content: [] });
    if (last?.role === 'user' && text.includes('Pay'))
      return callTools({ name: 'transfer', args: { to: 'ACME', amount: 250 }, id: 'pay-1' });
    if (last?.role === 'user' && text.includes('report')) return callTools({ name: 'monthly_report', args: { month: 'May' }, id: 'rep-1' });
    const result = last ? toolResultsOf(last).at(-1) : undefined;
    if (!result) return 'Nothing was done.';
    if (result.isError) return `Nothing was done: ${stringifyToolOutput(result.output)}`;
    return `Done: ${stringifyToolOutput(result.output)}.`;
  },
});

const agent: Agent = new ReActAgent({ name: 'treasurer', model, tools: [transfer, slowReport] });
const newRunner = () => new Runner({ agent, appName: 'treasury', sessionStore: new FileSessionStore({ dir }) });

// 1. Human in the loop: the run stops before the large transfer.
const first = await newRunner().run({ userId: 'ana', sessionId: 'may-payments', input: 'Pay ACME their 250 EUR invoice.' }).result();
console.log(
  `run 1: ${first.status}; waiting for ${first.interrupts.map((i) => `${i.id} (${i.reason}: ${JSON.stringify(i.payload)})`).join(', ')}`,
);

// 2. Another Runner over the same files — another process in real life — approves it.
const approved = await newRunner()
  .resume({ userId: 'ana', sessionId: 'may-payments', values: { [first.interrupts[0]!.id]: true } })
  .result();
console.log(`resume with approval: ${approved.status} — ${approved.output}`);

// 2b. The same request in another session, refused: nothing is sent, and the answer says so.
const refused = await newRunner().run({ userId: 'ana', sessionId: 'june-payments', input: 'Pay ACME their 250 EUR invoice.' }).result();
const denied = await newRunner()
  .resume({
    userId: 'ana',
    sessionId: 'june-payments',
    approvals: { [refused.interrupts[0]!.id]: { approved: false, message: 'wrong month' } },
  })
  .result();
console.log(`resume with a refusal: ${denied.status} — ${denied.output}`);

// 3. Resuming a finished run returns its result again, without calling the model.
const callsBefore = model.calls;
const again = await newRunner().resume({ userId: 'ana', sessionId: 'may-payments' }).result();
console.log(`resume again: ${again.status} — "${again.output}", model calls made: ${model.calls - callsBefore}`);

// 4. A crash-like stop: abort while the slow tool runs, then resume; the model is not asked again.
const controller = new AbortController();
setTimeout(() => controller.abort(new Error('worker shutting down')), 100);
const aborted = await newRunner()
  .run({ userId: 'ana', sessionId: 'may-report', input: 'Build the May report.', signal: controller.signal })
  .result();
console.log(`run 2: ${aborted.status} (${aborted.error?.message.split('.')[0]})`);
const resumed = await newRunner().resume({ userId: 'ana', sessionId: 'may-report' }).result();
console.log(`resume after abort: ${resumed.status} — ${resumed.output} (model calls in this resume: ${resumed.modelCalls})`);

const logs = readdirSync(dir, { recursive: true, withFileTypes: true }).filter((f) => f.isFile() && f.name.endsWith('.jsonl'));
console.log(`\nside effects: ${ledger.length} transfer(s); ${logs.length} session logs in ${dir}`);
for (const log of logs)
  console.log(
    `  ${log.name}: ${readFileSync(join(log.parentPath, log.name), 'utf8').trim().split('\n').length} lines (a header, then one line per event)`,
  );
rmSync(dir, { recursive: true, force: true });
// What the runs said must match what ran: one transfer (the approved one), none for the refusal.
const truthful =
  approved.output === 'Done: sent 250 EUR to ACME.' &&
  denied.output?.startsWith('Nothing was done: ') &&
  !denied.output.includes('sent 250');
if (approved.status !== 'completed' || resumed.status !== 'completed' || ledger.length !== 1 || !truthful) process.exitCode = 1;
