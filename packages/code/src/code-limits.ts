import { ConfigurationError } from '@replan/core';

/** Bounds on one execution of a program; each exceeded ends it with an error result naming the limit. */
export interface CodeLimits {
  /** Wall time of one execution, tool calls included (default 30 000 ms). */
  readonly timeMs?: number;
  /** Memory the program's QuickJS runtime may allocate (default 64 MiB). */
  readonly memoryBytes?: number;
  /** Tool calls one program may make (default 100). */
  readonly toolCalls?: number;
  /** UTF-8 bytes of `console` output plus the returned JSON (default 64 KiB). */
  readonly outputBytes?: number;
}

export type ResolvedLimits = Required<CodeLimits>;

const DEFAULTS: ResolvedLimits = { timeMs: 30_000, memoryBytes: 64 * 1024 * 1024, toolCalls: 100, outputBytes: 64 * 1024 };
/** Below this a QuickJS runtime cannot even set up the program's world. */
const MIN_MEMORY = 1024 * 1024;

/** The limits with defaults filled in; a limit that is not a positive whole number is a `ConfigurationError`. */
export function resolveLimits(toolName: string, limits: CodeLimits = {}): ResolvedLimits {
  const out = { ...DEFAULTS };
  for (const key of Object.keys(DEFAULTS) as (keyof ResolvedLimits)[]) {
    const value = limits[key];
    if (value === undefined) continue;
    if (!Number.isSafeInteger(value) || value < (key === 'toolCalls' ? 0 : 1))
      throw new ConfigurationError(`codeTool "${toolName}": limits.${key} must be a positive whole number; got ${String(value)}.`);
    out[key] = value;
  }
  if (out.memoryBytes < MIN_MEMORY)
    throw new ConfigurationError(
      `codeTool "${toolName}": limits.memoryBytes must be at least ${MIN_MEMORY} (1 MiB); got ${out.memoryBytes}.`,
    );
  return out;
}
