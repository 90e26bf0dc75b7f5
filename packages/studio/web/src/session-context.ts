import type { Api } from './api.js';

/** What the panels of a session view share. */
export interface SessionContext {
  readonly api: Api;
  /** `app`, `user`, `id` query parameters of this session. */
  readonly params: { readonly app: string; readonly user: string; readonly id: string };
  /** Whether the studio has a runner for this app (else the view is read-only). */
  readonly canAct: boolean;
  showStep(key: string): void;
  showEvent(index: number): void;
  /** Reload everything now (after an action). */
  refresh(): void;
  /** Tell the user something (an action's outcome or error). */
  say(message: string): void;
}
