// @ts-check
/** The `record` tool of the scenarios: one side effect per idempotency key, then a short wait. */
import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { tool } from '@replan/core';

/**
 * The record calls running in this process, by item: each settles once its call has returned and
 * the event loop has turned once more (by then the runner has its result, so it is stored first).
 * @type {Map<string, Promise<void>>}
 */
const running = new Map();

/**
 * @param {(label: string) => void} mark
 * @param {ReturnType<typeof import('./effect-log.mjs').effectLog>} log
 * @param {number} [extraMs] added to every call's wait (a slower tool, so a kill can land mid-call)
 */
export function recordTool(mark, log, extraMs = 0) {
  return tool({
    name: 'record',
    description: 'Records an item (a side effect, made once per idempotency key).',
    // `after`: finish only after that item's call, when it runs in this process too. Sibling calls
    // finish in that order however late the machine runs their timers; after a crash, a call whose
    // sibling's result is stored (so the sibling does not run again) does not wait.
    parameters: z.object({ item: z.string(), ms: z.number(), after: z.string().optional() }),
    async execute({ item, ms, after }, ctx) {
      /** @type {() => void} */
      let settle = () => undefined;
      running.set(item, new Promise((resolve) => (settle = resolve)));
      try {
        log.attempt({ kind: 'tool', tool: 'record', callId: ctx.toolCallId });
        mark(`tool:record:start ${ctx.toolCallId}`);
        log.applyOnce(ctx.idempotencyKey, { item });
        mark(`tool:record:effect ${ctx.toolCallId}`);
        await sleep(ms + extraMs);
        if (after) await running.get(after);
        ctx.state.set(`recorded:${item}`, true);
        ctx.state.set(`user:seen:${item}`, true);
        return `ok:${item}`;
      } finally {
        void nextTurn().then(settle);
      }
    },
  });
}
