import type { Interrupt } from '@replan/core';
import { clip, type TerminalStyle } from './terminal-style.js';

/** The payload of a tool approval as the tree shows it: the call's arguments. */
const argsOf = (payload: unknown) => {
  const args = (payload as { args?: unknown } | null)?.args;
  return args === undefined ? '' : JSON.stringify(args);
};

/**
 * What waits: the tool's name; for a call a code step's program made (id `<codeCallId>#<n>:approval`,
 * `@replan/code`), the inner tool's name and its place in the program.
 */
function waitingTool(interrupt: Interrupt): string {
  const inner = /#(\d+):approval$/.exec(interrupt.id);
  const tool = (interrupt.payload as { tool?: unknown } | null)?.tool;
  if (inner && typeof tool === 'string' && tool !== interrupt.toolName)
    return `${tool} (call #${inner[1]} of ${interrupt.toolName ?? 'a program'})`;
  return interrupt.toolName ?? 'a tool';
}

/**
 * The lines of a pending interrupt other than a plan review — a tool waiting for approval, or a
 * question a tool asked — with its id and how to answer it, as a pending plan review shows.
 */
export function pendingInterruptLines(interrupt: Interrupt, indent: string, s: TerminalStyle): string[] {
  const id = JSON.stringify(interrupt.id);
  if (interrupt.reason === 'approval')
    return [
      `${indent}${s.yellow('├─ Waiting for approval')} ${waitingTool(interrupt)} ${s.dim(clip(argsOf(interrupt.payload), 120))}`.trimEnd(),
      `${indent}│   answer ${s.bold(interrupt.id)}: runner.resume({ userId, sessionId, approvals: { ${id}: true } })`,
      `${indent}│   ${s.dim(`or false, or { approved: false, message: "why" }; a new message needs runner.run({ …, abandon: true })`)}`,
    ];
  return [
    `${indent}${s.yellow('├─ Waiting for an answer')}${interrupt.toolName ? ` from ${interrupt.toolName}` : ''}: ${clip(JSON.stringify(interrupt.payload) ?? interrupt.reason, 120)}`,
    `${indent}│   answer ${s.bold(interrupt.id)}: runner.resume({ userId, sessionId, values: { ${id}: answer } })`,
  ];
}

/** The line of an answered interrupt (from the resume's values): approved, rejected, or answered. */
export function answeredInterruptLine(interrupt: Interrupt, value: unknown, indent: string, s: TerminalStyle): string {
  if (interrupt.reason !== 'approval') return `${indent}${s.green('├─ Answered')} ${interrupt.id}`;
  const approved = value === true || (typeof value === 'object' && value !== null && (value as { approved?: unknown }).approved === true);
  const message = typeof value === 'object' && value !== null ? (value as { message?: unknown }).message : undefined;
  return approved
    ? `${indent}${s.green('├─ Approved')} ${interrupt.toolName ?? interrupt.id}`
    : `${indent}${s.red('├─ Not approved')} ${interrupt.toolName ?? interrupt.id}${typeof message === 'string' ? `: ${clip(message)}` : ''}`;
}
