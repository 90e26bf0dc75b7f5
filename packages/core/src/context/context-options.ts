/**
 * How far back an agent looks: `'default'`, the whole visible history; `'none'`, only the
 * current turn (from the latest user message, or the latest message of another agent that
 * speaks or hands over to this one) plus the agent's own turn so far.
 */
export type IncludeContents = 'default' | 'none';

/**
 * Who an agent hears: `'user'` (plain user messages), `'self'` (this agent's own model turns and
 * tool traffic), or another agent's name, matched against `event.author`.
 */
export type IncludeSource = 'user' | 'self' | (string & {});

/** The context controls of a `ReActAgent`; see `buildContextMessages` and docs/context.md. */
export interface ContextOptions {
  readonly includeContents?: IncludeContents;
  /** `undefined`: everyone. `[]` is a construction error (it would hide everything). */
  readonly includeSources?: readonly IncludeSource[];
  /** Quote other agents' reasoning too (`[name] thought: …`); off by default. */
  readonly includeOtherAgentsReasoning?: boolean;
}
