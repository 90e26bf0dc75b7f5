// @ts-check
/** A SessionStore that prints a marker before and after each write, so a kill can land there. */
import { toolResultsOf } from '@replan/core';

/**
 * What an append carries, for the marker label: the author of its event (with the graph step it
 * belongs to), and what it is (a tool result with its tool call ids).
 * @param {readonly import('@replan/core').AgentEvent[]} events
 */
function describe(events) {
  const e = events[0];
  if (!e) return 'nothing';
  const what =
    e.message?.role === 'tool'
      ? 'tool-result'
      : e.actions?.agentState
        ? 'cursor'
        : e.actions?.interrupt
          ? 'interrupt'
          : e.meta?.planExecute === 'step-result'
            ? 'step-result'
            : (e.meta?.kind ?? e.message?.role ?? 'event');
  const step = typeof e.meta?.stepId === 'string' ? `[${e.meta.stepId}]` : '';
  const ids =
    what === 'tool-result'
      ? ` ${toolResultsOf(e.message)
          .map((r) => r.toolCallId)
          .join(',')}`
      : '';
  return `${e.author}${step}:${what}${ids}`;
}

/**
 * @param {import('@replan/core').SessionStore} store
 * @param {(label: string) => void} mark
 * @returns {import('@replan/core').SessionStore}
 */
export function markedStore(store, mark) {
  return {
    async create(session, events) {
      mark('store:create:before');
      const created = await store.create(session, events);
      mark('store:create:after');
      return created;
    },
    get: (key) => store.get(key),
    list: (input) => store.list(input),
    delete: (key) => store.delete(key),
    async appendEvents(key, events, options) {
      // One marker per event: the runner group-commits tool results, so how events fall into
      // appends depends on timing; per-event markers keep the kill points the same in every run.
      const whats = events.map((e) => describe([e]));
      for (const what of whats) mark(`store:append:before ${what}`);
      const result = await store.appendEvents(key, events, options);
      for (const what of whats) mark(`store:append:after ${what}`);
      return result;
    },
    close: async () => store.close?.(),
  };
}
