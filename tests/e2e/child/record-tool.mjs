// @ts-check
/** The `record` tool of the scenarios: one side effect per idempotency key, then a short wait. */
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { tool } from '@replan/core';

/**
 * @param {(label: string) => void} mark
 * @param {ReturnType<typeof import('./effect-log.mjs').effectLog>} log
 */
export function recordTool(mark, log) {
  return tool({
    name: 'record',
    description: 'Records an item (a side effect, made once per idempotency key).',
    parameters: z.object({ item: z.string(), ms: z.number() }),
    async execute({ item, ms }, ctx) {
      log.attempt({ kind: 'tool', tool: 'record', callId: ctx.toolCallId });
      mark(`tool:record:start ${ctx.toolCallId}`);
      log.applyOnce(ctx.idempotencyKey, { item });
      mark(`tool:record:effect ${ctx.toolCallId}`);
      await sleep(ms);
      ctx.state.set(`recorded:${item}`, true);
      ctx.state.set(`user:seen:${item}`, true);
      return `ok:${item}`;
    },
  });
}
