/** How far back an agent looks: the whole history, or only the current turn. */
export type IncludeContents = 'default' | 'none';

/** Who an agent hears: `'user'`, `'self'`, or other agents' names. */
export type IncludeSource = 'user' | 'self' | (string & {});

export interface ContextOptions {
  readonly includeContents?: IncludeContents;
  /** `undefined`: everyone. `[]` is a construction error. */
  readonly includeSources?: readonly IncludeSource[];
  /** Show other agents' reasoning (quoted); off by default. */
  readonly includeOtherAgentsReasoning?: boolean;
}
