// No SDK types here: an app type-checks its use of `@replan/a2a` without the optional peer installed.

/** One thing the agent can do, as the card lists it (defaults from the agent). */
export interface A2aSkill {
  readonly id: string;
  readonly name: string;
  readonly description: string;
  readonly tags?: readonly string[];
  readonly examples?: readonly string[];
}

/** What the agent card says; each field defaults from the agent (its name, description, one skill). */
export interface A2aCardOptions {
  readonly name?: string;
  readonly description?: string;
  readonly version?: string;
  readonly skills?: readonly A2aSkill[];
  /** Who runs the agent. */
  readonly provider?: { readonly organization: string; readonly url: string };
  readonly documentationUrl?: string;
}

/** What the served agent card says (the whole card is served at `/.well-known/agent-card.json`). */
export interface ServedCard {
  readonly name: string;
  readonly description: string;
  readonly version: string;
  readonly skills: readonly A2aSkill[];
}
