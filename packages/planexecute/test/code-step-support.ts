import { z } from 'zod';
import { tool, type Middleware, type Tool } from '@replan/core';

/**
 * A stand-in for `@replan/code`'s code tool that writes the events its contract promises (design
 * §22), for views that only read those events: a `run_code` tool whose args are `{ program }`;
 * each inner call is a tool-call event and a tool-result event marked `meta.codeCall: { id, index }`
 * (ids `<codeCallId>#<n>`), recorded before the code call's own result. It does not run the
 * program: it makes `calls` in order through `tools`, and returns their outputs.
 */
export function standInCode(tools: readonly Tool[], calls: readonly { name: string; args: Record<string, unknown> }[]): Middleware {
  const runCode = tool({
    name: 'run_code',
    description: 'Runs a JavaScript program (an async function body) with the tools as async functions.',
    parameters: z.object({ program: z.string() }),
    execute: () => 'unreachable: the stand-in answers in wrapToolCall',
  });
  return {
    name: 'code-stand-in',
    tools: [runCode],
    async wrapToolCall(next, call, ctx) {
      if (call.name !== 'run_code') return next(call);
      const outputs: unknown[] = [];
      for (const [n, inner] of calls.entries()) {
        const id = `${call.id}#${n}`;
        const meta = { codeCall: { id: call.id, index: n } };
        ctx.record({ message: { role: 'assistant', content: [{ type: 'tool_call', id, name: inner.name, args: inner.args }] }, meta });
        const found = tools.find((t) => t.name === inner.name);
        const output = found ? await found.execute(inner.args, ctx as never) : `unknown tool ${inner.name}`;
        outputs.push(output);
        ctx.record({
          message: { role: 'tool', content: [{ type: 'tool_result', toolCallId: id, name: inner.name, output, isError: !found }] },
          meta,
        });
      }
      return { output: { result: outputs, logs: [] }, isError: false };
    },
  };
}
