import type { AgentEvent } from '../events/agent-event.js';
import type { ToolResultBlock } from '../messages/content-block.js';
import { type Message, toolCallsOf } from '../messages/message.js';
import type { InvocationContext } from '../invocation/invocation-context.js';
import type { ContextOptions } from './context-options.js';
import { EventView } from './event-view.js';
import { OtherAgentsQuotes, type QuoteRun } from './other-agents.js';
import { CallGroup, callKey } from './tool-pairing.js';

/** One slot of the request, in session order. */
type Entry =
  | { readonly kind: 'message'; readonly message: Message }
  | { readonly kind: 'calls'; readonly group: CallGroup }
  | { readonly kind: 'quote'; readonly run: QuoteRun };

/**
 * Builds the model messages an agent sees from the session's events, in time linear in the log
 * (one pass, plus one backwards scan for `'none'`).
 *
 * - `includeContents: 'none'` starts at the current turn (the latest user message, or the latest
 *   message of another agent that speaks or hands over to this one), chosen among the events the
 *   source filter keeps; `'default'` starts at the beginning.
 * - `includeSources` keeps `'user'` (user messages), `'self'` (this agent's own model turns and
 *   tool traffic) and the named agents (matched against `event.author`).
 * - Whatever the filters, the agent's own turn so far (its events since `ctx.scopeStart`) is kept.
 * - User messages and this agent's messages go as they are; other agents' messages become
 *   quoted, user-role context between markers, their reasoning left out unless
 *   `includeOtherAgentsReasoning`.
 * - A tool result is kept exactly when its call is kept. This agent's calls are followed directly
 *   by their results; a call with no stored result gets a placeholder error result, except the
 *   unanswered calls of its latest turn, which the agent runs itself next (they come last).
 *
 * Events of sibling `ParallelAgent` branches are never seen (`ctx.isVisible`).
 */
export function buildContextMessages(ctx: InvocationContext, options: ContextOptions = {}): Message[] {
  const events = ctx.events;
  const view = new EventView(ctx, options);
  const start = options.includeContents === 'none' ? view.currentTurnStart(events) : 0;
  const quotes = new OtherAgentsQuotes(options.includeOtherAgentsReasoning === true);
  const groups = new Map<string, CallGroup>();
  const entries: Entry[] = [];
  let run: QuoteRun | undefined;
  let latestOwnTurn: Entry | undefined;

  for (let i = Math.min(start, ctx.scopeStart); i < events.length; i++) {
    const event = events[i] as AgentEvent;
    const message = view.messageOf(event);
    if (!message) continue;
    const own = view.isOwnTurn(event, i);
    if (!own && (i < start || !view.hears(event.author))) continue;

    if (own || event.author === view.self) {
      const entry = selfEntry(event, message, groups);
      if (entry) {
        run = undefined; // a result joins its call's slot, so only a new slot ends a quote run
        entries.push(entry);
      }
      if (own && message.role === 'assistant') latestOwnTurn = entry;
    } else if (event.author === 'user') {
      run = undefined;
      entries.push({ kind: 'message', message });
    } else {
      if (!run) {
        run = [];
        entries.push({ kind: 'quote', run });
      }
      quotes.add(event, message, run);
    }
  }

  // The latest own turn's calls still waiting for results are run by the agent right after this;
  // it appends their results, so that turn goes last, with no placeholders.
  const open = latestOwnTurn?.kind === 'calls' && latestOwnTurn.group.unanswered ? latestOwnTurn : undefined;
  const out: Message[] = [];
  for (const entry of entries) {
    if (entry === open) continue;
    if (entry.kind === 'message') out.push(entry.message);
    else if (entry.kind === 'calls') entry.group.render(out, false);
    else {
      const quoted = quotes.render(entry.run);
      if (quoted) out.push(quoted);
    }
  }
  if (open) open.group.render(out, true);
  return out;
}

/**
 * An own message as a request slot: a tool-calling turn opens a call group; tool results join
 * the group of their call (dropped when that call was not kept, or already answered).
 */
function selfEntry(event: AgentEvent, message: Message, groups: Map<string, CallGroup>): Entry | undefined {
  if (message.role === 'tool') {
    const only = message.content.length === 1 ? message.content[0] : undefined;
    if (only?.type === 'tool_result') {
      groups.get(callKey(event, only.toolCallId))?.addResults(message, [only]);
      return undefined;
    }
    // Several results in one message (rare): each joins the group of its own call.
    const kept = new Map<CallGroup, ToolResultBlock[]>();
    for (const block of message.content) {
      if (block.type !== 'tool_result') continue;
      const owner = groups.get(callKey(event, block.toolCallId));
      if (!owner) continue;
      const blocks = kept.get(owner);
      if (blocks) blocks.push(block);
      else kept.set(owner, [block]);
    }
    for (const [group, blocks] of kept) group.addResults(message, blocks);
    return undefined;
  }
  if (message.role === 'assistant') {
    const calls = toolCallsOf(message);
    if (calls.length) {
      const group = new CallGroup(message, calls);
      for (const call of calls) groups.set(callKey(event, call.id), group);
      return { kind: 'calls', group };
    }
  }
  return { kind: 'message', message };
}
