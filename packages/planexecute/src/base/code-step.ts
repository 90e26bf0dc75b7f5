import type { Tool } from '@replan/core';
import { codeTool, type CodeToolOptions } from '@replan/code';

/**
 * A step's tools with its code tool (`ExecutorOptions.code`): `tools` as given, then a
 * `codeTool` (`@replan/code`, default name `run_code`) whose programs call `code.tools`. A name
 * used twice is the ReAct loop's `ConfigurationError`, as for any two tools.
 */
export function stepTools(tools: readonly Tool[] | undefined, code: CodeToolOptions | undefined): readonly Tool[] | undefined {
  if (!code) return tools;
  return [...(tools ?? []), codeTool(code)];
}
