import type { AgentEvent } from '../events/agent-event.js';
import type { Message } from '../messages/message.js';
import { callKey } from './tool-pairing.js';
import { callLine, quotedMessage, resultLine, saidLine, thoughtLine } from './quoted-context.js';

/** A quoted tool call: shown only if its result is quoted too. */
interface CallLine {
  readonly key: string;
  readonly text: string;
}

/** The lines of consecutive quoted events, rendered as one user-role message. */
export type QuoteRun = Array<string | CallLine>;

/**
 * Other agents' messages as quoted lines. Consecutive quoted events share one user-role message
 * (a run); a call and its result may land in different runs, so calls are decided at render time.
 */
export class OtherAgentsQuotes {
  /** Calls quoted so far, by key → whether a result was quoted for them. */
  private readonly calls = new Map<string, boolean>();

  constructor(private readonly includeReasoning: boolean) {}

  /**
   * Adds an event's lines to `run`. Assistant messages give said/thought/call lines; tool
   * messages give result lines for calls quoted before (a result whose call was left out — by a
   * filter or the current-turn cut — is dropped with it). User-role messages an agent stored are
   * prompts to its own model (nudges, repairs), not something it said, so they are skipped.
   */
  add(event: AgentEvent, message: Message, run: QuoteRun): void {
    const author = event.author;
    if (message.role === 'assistant') {
      for (const block of message.content) {
        if (block.type === 'text') {
          if (block.text.trim()) run.push(saidLine(author, block.text));
        } else if (block.type === 'reasoning') {
          const line = this.includeReasoning ? thoughtLine(author, block) : undefined;
          if (line) run.push(line);
        } else if (block.type === 'tool_call') {
          const key = callKey(event, block.id);
          if (this.calls.has(key)) continue; // a repeated id: the first call owns the result
          this.calls.set(key, false);
          run.push({ key, text: callLine(author, block) });
        }
      }
    } else if (message.role === 'tool') {
      for (const block of message.content) {
        if (block.type !== 'tool_result') continue;
        const key = callKey(event, block.toolCallId);
        if (this.calls.get(key) !== false) continue; // orphan or duplicate
        this.calls.set(key, true);
        run.push(resultLine(author, block));
      }
    }
  }

  /** The user-role message of one run, or nothing when every line of it was dropped. */
  render(run: Readonly<QuoteRun>): Message | undefined {
    const lines: string[] = [];
    for (const line of run) {
      if (typeof line === 'string') lines.push(line);
      else if (this.calls.get(line.key)) lines.push(line.text); // a call without its result is dropped
    }
    return lines.length ? quotedMessage(lines) : undefined;
  }
}
