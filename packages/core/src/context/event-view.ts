import type { AgentEvent } from '../events/agent-event.js';
import type { Message } from '../messages/message.js';
import type { InvocationContext } from '../invocation/invocation-context.js';
import { isInnerCallEvent } from '../events/inner-call.js';
import { blockedAnswerNotes } from './blocked-answers.js';
import type { ContextOptions } from './context-options.js';

/**
 * How one agent sees the session's events: which it may see at all (stored, with a message, on
 * a visible branch), which are its own turn so far, and whose voices its source filter keeps.
 * Everything is decided from structured fields (`author`, `path`, `branch`), never from text.
 */
export class EventView {
  readonly self: string;
  private readonly hearsUser: boolean;
  private readonly hearsSelf: boolean;
  private readonly agents: ReadonlySet<string> | undefined;
  private readonly blocked: ReadonlyMap<string, Message> | undefined;

  constructor(
    private readonly ctx: InvocationContext,
    options: ContextOptions,
  ) {
    this.self = ctx.agent.name;
    const sources = options.includeSources;
    this.agents = sources ? new Set(sources) : undefined;
    this.hearsUser = !sources || sources.includes('user');
    this.hearsSelf = !sources || sources.includes('self');
    this.blocked = blockedAnswerNotes(ctx.events);
  }

  /**
   * The event's message when the agent may see it at all. A tool's inner calls (`meta.codeCall`)
   * never reach a model: it sees the outer call and its result only.
   */
  messageOf(event: AgentEvent): Message | undefined {
    if (event.partial || !event.message || !this.ctx.isVisible(event) || isInnerCallEvent(event)) return undefined;
    return this.blocked?.get(event.id) ?? event.message;
  }

  /** True for the agent's own events of its current run (`index` is the event's position). */
  isOwnTurn(event: AgentEvent, index: number): boolean {
    return index >= this.ctx.scopeStart && event.path === this.ctx.path && event.branch === this.ctx.branch;
  }

  /** True when the source filter keeps this author. */
  hears(author: string): boolean {
    if (author === 'user') return this.hearsUser;
    if (author === this.self) return this.hearsSelf;
    return !this.agents || this.agents.has(author);
  }

  /**
   * True for an event that starts a turn for this agent: a user message, or another agent's
   * message that speaks (has text) or hands over to this agent (`transferTo`).
   */
  isTurnStart(event: AgentEvent, message: Message): boolean {
    if (event.author === 'user') return message.role === 'user';
    if (event.author === this.self) return false;
    if (event.actions?.transferTo === this.self) return true;
    if (message.role !== 'assistant') return false;
    for (const block of message.content) if (block.type === 'text' && block.text.trim()) return true;
    return false;
  }

  /**
   * Where the current turn begins for `includeContents: 'none'`: the latest turn start among the
   * events the source filter keeps (so the two controls compose instead of emptying the
   * context), or the end of the log when none is kept — then only the agent's own turn remains.
   */
  currentTurnStart(events: readonly AgentEvent[]): number {
    for (let i = events.length - 1; i >= 0; i--) {
      const event = events[i] as AgentEvent;
      const message = this.messageOf(event);
      if (!message || this.isOwnTurn(event, i) || !this.hears(event.author)) continue;
      if (this.isTurnStart(event, message)) return i;
    }
    return events.length;
  }
}
