import type { Session } from '@replan/core';
import type { SessionRow, StepStatus } from '../../web/src/wire-types.js';
import { eventRow } from '../view/event-views.js';
import { planRevisions } from '../view/plan-revisions.js';
import { statusOf } from '../view/session-status.js';
import { sumTokens } from '../view/tokens.js';

const MARK: Record<StepStatus, string> = { done: '✓', failed: '✗', running: '▶', pending: '·' };

const time = (ms: number) => new Date(ms).toISOString().replace('T', ' ').slice(0, 23);

/** A session as a terminal tree: status and plan first, then every event indented by its agent path. */
export function formatSession(session: Session): string {
  const { events } = session;
  const reading = statusOf(events);
  const tokens = sumTokens(events);
  const lines = [
    `session ${session.id} · app ${session.appName} · user ${session.userId}`,
    `status ${reading.status} · ${events.length} events · tokens ${tokens.input} in / ${tokens.output} out`,
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
    const row = eventRow(event, index);
    lines.push(`${time(row.timestamp)} ${'  '.repeat(row.depth)}${row.path} ${row.kind}${row.summary ? `: ${row.summary}` : ''}`);
  });
  if (reading.output !== undefined) lines.push('', `answer: ${reading.output}`);
  return lines.join('\n');
}

/** `replan sessions` rows as aligned columns. */
export function formatSessionRows(rows: readonly SessionRow[]): string {
  const table = [
    ['SESSION', 'STATUS', 'EVENTS', 'TOKENS', 'UPDATED', 'INPUT'],
    ...rows.map((r) => [r.id, r.status, String(r.version), `${r.tokens.input}/${r.tokens.output}`, time(r.updatedAt), r.preview]),
  ];
  const widths = table[0]!.map((_, c) => Math.max(...table.map((row) => (row[c] ?? '').length)));
  return table.map((row) => row.map((cell, c) => (c === row.length - 1 ? cell : cell.padEnd(widths[c] ?? 0))).join('  ')).join('\n');
}
