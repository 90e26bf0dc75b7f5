import type { Tool } from '@replan/core';
import type { ResolvedLimits } from './code-limits.js';

/**
 * What the model reads about a code tool: how to write a program, the functions it may call
 * with their JSON Schemas, and the limits. Tool descriptions are the tool authors' own text
 * (trusted configuration), so they go in as they are.
 */
export function codeToolDescription(tools: readonly Tool[], limits: ResolvedLimits, intro?: string): string {
  const functions = tools.map(
    (t) => `- tools.${t.name}(args): ${t.description.trim() || '(no description)'}\n  args (JSON Schema): ${JSON.stringify(t.jsonSchema)}`,
  );
  return [
    intro ??
      'Runs a JavaScript program (the body of an async function) that calls tools in a loop or in sequence, instead of one tool call per turn.',
    'Write `const r = await tools.<name>({ ...args })`; each call takes one JSON arguments object and returns JSON. A failed call throws an Error whose message says why (catch it to go on).',
    "Return a JSON value: it is this tool's result, with the lines written by console.log. No network, no timers, no modules; Date is frozen at the time of this call and Math.random is seeded.",
    `Limits: ${limits.timeMs} ms, ${limits.memoryBytes} bytes of memory, ${limits.toolCalls} tool calls, ${limits.outputBytes} bytes of output.`,
    'Functions:',
    ...(functions.length ? functions : ['(none)']),
  ].join('\n');
}
