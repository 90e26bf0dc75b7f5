import { type AgentEvent, type Run, type RunResult, type RunStatus, type Session, sessionTotals } from '@replan/core';
import { guardrailBlockText, addUsage, emptyUsage } from '@replan/core/agent-kit';
import { renderRun } from '@replan/planexecute/terminal';
import { storedBreakdown, storedToolCalls } from '../view/step-usage.js';
import type { SessionRow, StepStatus } from '../../web/src/wire-types.js';
import { eventRow } from '../view/event-views.js';
import { planRevisions } from '../view/plan-revisions.js';
import { statusOf } from '../view/session-status.js';
import { cacheNote, sumTokens } from '../view/tokens.js';

const MARK: Record<StepStatus, string> = { done: '✓', failed: '✗', running: '▶', pending: '·' };

const time = (ms: number) => new Date(ms).toISOString().replace('T', ' ').slice(0, 23);

/**
 * A stored session through the terminal renderer of live runs (`renderRun`): its events are
 * replayed as a `Run`, then the summary gives the status and the tokens per step from the stored
 * `usage` (the log keeps no prices or latencies).
 */
export async function renderSession(session: Session, write: (text: string) => void, color = false): Promise<void> {
  const { events } = session;
  const reading = statusOf(events);
  const usage = events.reduce((sum, e) => addUsage(sum, e.usage), emptyUsage());
  const modelCalls = events.filter((e) => e.usage).length;
  const result: RunResult = {
    // 'running' (or 'empty') is what the log says; the renderer only prints it.
    status: reading.status as RunStatus,
    output: reading.output,
    sessionId: session.id,
    invocationId: events.at(-1)?.invocationId ?? '',
    interrupts: [],
    usage,
    modelCalls,
    toolCalls: storedToolCalls(events),
    cost: 0,
    breakdown: storedBreakdown(events),
    session: sessionTotals(events), // the CLI has no prices: cost 0, every call unpriced
  };
  // `Run` is built only by the Runner; renderRun reads a run through its events and result(), so a
  // stored session replays as exactly that.
  const replay = {
    async *[Symbol.asyncIterator](): AsyncIterator<AgentEvent> {
      yield* events;
    },
    result: () => Promise.resolve(result),
  } as unknown as Run;
  const input = events.find((e) => e.author === 'user' && e.message);
  write(`session ${session.id} · app ${session.appName} · user ${session.userId} · ${eventCount(events.length)}\n`);
  await renderRun(replay, { out: { write, isTTY: color }, color, ...(input ? { objective: eventRow(input, 0).summary } : {}) });
  if (reading.error) write(`error ${reading.error.name}: ${reading.error.message}\n`);
}

/** A session as a plain tree: status and plan first, then every event indented by its agent path (`replan show --events`). */
export function formatSession(session: Session): string {
  const { events } = session;
  const reading = statusOf(events);
  const tokens = sumTokens(events);
  const lines = [
    `session ${session.id} · app ${session.appName} · user ${session.userId}`,
    `status ${reading.status} · ${eventCount(events.length)} · tokens ${tokens.input} in / ${tokens.output} out${cacheNote(tokens)}`,
  ];
  if (reading.error) lines.push(`error ${reading.error.name}: ${reading.error.message}`);
  const plan = planRevisions(events).at(-1);
  if (plan) {
    lines.push('', `plan (${plan.mode}, version ${planRevisions(events).length})`);
    for (const step of plan.steps)
      lines.push(
        `  ${MARK[step.status]} ${step.key} ${step.label}${step.dependsOn.length ? `  (after ${step.dependsOn.join(', ')})` : ''}`,
      );
  }
  lines.push('', 'events');
  events.forEach((event, index) => {
    const row = eventRow(event, index, events);
    lines.push(`${time(row.timestamp)} ${'  '.repeat(row.depth)}${row.path} ${row.kind}${row.summary ? `: ${row.summary}` : ''}`);
  });
  if (reading.output !== undefined) lines.push('', `answer: ${reading.output}`);
  if (reading.guardrail) lines.push('', guardrailBlockText(reading.guardrail));
  return lines.join('\n');
}

/** `replan sessions` rows as aligned columns; `owners` adds each row's app and user (a list across them). */
export function formatSessionRows(rows: readonly SessionRow[], options: { owners?: boolean } = {}): string {
  const owner = (r: SessionRow) => (options.owners ? [r.appName, r.userId] : []);
  const table = [
    [...(options.owners ? ['APP', 'USER'] : []), 'SESSION', 'STATUS', 'EVENTS', 'TOKENS', 'UPDATED', 'INPUT'],
    ...rows.map((r) => [
      ...owner(r),
      r.id,
      r.status,
      String(r.version),
      `${r.tokens.input}/${r.tokens.output}`,
      time(r.updatedAt),
      r.preview,
    ]),
  ];
  const widths = table[0]!.map((_, c) => Math.max(...table.map((row) => (row[c] ?? '').length)));
  return table.map((row) => row.map((cell, c) => (c === row.length - 1 ? cell : cell.padEnd(widths[c] ?? 0))).join('  ')).join('\n');
}

/** `1 event`, `2 events`. */
const eventCount = (n: number): string => `${n} ${n === 1 ? 'event' : 'events'}`;
