/** Reads and writes of session state from a tool or hook; writes become the event's `stateDelta`. */
export interface StateAccess {
  get<T = unknown>(key: string): T | undefined;
  has(key: string): boolean;
  /**
   * Records a change; it is stored with the event this tool call produces (not at all if the
   * call throws). The value must be JSON, else `StateValueError` is thrown here at once.
   */
  set(key: string, value: unknown): void;
  /** The whole state as this call sees it (its own writes included). */
  toObject(): Readonly<Record<string, unknown>>;
}

/** What a tool's `execute` receives besides its arguments. */
export interface ToolContext {
  readonly toolName: string;
  readonly toolCallId: string;
  /**
   * Stable across retries and resumes (`<sessionId>:<toolCallId>`): a tool call that started but
   * has no stored result is run again after a crash, so side effects should be keyed by this.
   */
  readonly idempotencyKey: string;
  readonly agentName: string;
  readonly appName: string;
  readonly userId: string;
  readonly sessionId: string;
  readonly invocationId: string;
  /** Aborted when the run is aborted or times out. */
  readonly signal: AbortSignal;
  readonly state: StateAccess;
  /**
   * Stops the run for a human: the interrupt is stored and the run ends `interrupted`. When the
   * run is resumed with a value for this interrupt, the tool runs again and this call returns it.
   * Call it in the same order each time (interrupts are numbered within a tool call).
   */
  interrupt<T = unknown>(payload: unknown, options?: { reason?: string }): T;
}
