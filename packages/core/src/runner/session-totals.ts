import type { AgentEvent } from '../events/agent-event.js';
import { addUsage, emptyUsage } from '../models/usage.js';
import type { SessionKey } from '../sessions/session.js';
import type { SessionStore } from '../sessions/session-store.js';
import { costOf, type PriceTable } from '../models/model-prices.js';
import type { ModelMeta, SessionTotals } from '../events/run-result.js';

/** Which model produced a stored event's usage, when the event recorded it. */
export function modelOfEvent(event: AgentEvent): ModelMeta | undefined {
  const model = event.meta?.model as Partial<ModelMeta> | undefined;
  return model && typeof model.id === 'string' ? (model as ModelMeta) : undefined;
}

/** What one stored event's model call cost, or `undefined` when it cannot be priced with `prices`. */
export function costOfEvent(event: AgentEvent, prices: PriceTable | undefined): number | undefined {
  if (!event.usage) return undefined;
  const model = modelOfEvent(event);
  const price = model ? prices?.[model.id] : undefined;
  return price ? costOf(price, event.usage) : undefined;
}

/** Sums the usage (and, with `prices`, the cost) stored in a session's events: the record every process shares. */
export function sessionTotals(events: readonly AgentEvent[], prices?: PriceTable): SessionTotals {
  let usage = emptyUsage();
  let modelCalls = 0;
  let cost = 0;
  let unpricedModelCalls = 0;
  for (const event of events)
    if (event.usage) {
      usage = addUsage(usage, event.usage);
      modelCalls++;
      const callCost = costOfEvent(event, prices);
      if (callCost === undefined) unpricedModelCalls++;
      else cost += callCost;
    }
  return { usage, modelCalls, cost, unpricedModelCalls };
}

/** The child sessions (`agentTool`) a session's tool results name (`meta.childSessionId`), each once, in order. */
export function childSessionIdsOf(events: readonly AgentEvent[]): string[] {
  const ids = new Set<string>();
  for (const event of events) {
    const id = event.meta?.childSessionId;
    if (typeof id === 'string') ids.add(id);
  }
  return [...ids];
}

/**
 * `sessionTotals` of a session plus, recursively, of the child sessions its agent tools ran
 * (read from `store`; they share the session's app and user). A child's model calls were made for
 * this session's runs, so "what did this session cost" includes them. A child that cannot be read
 * (deleted, or the store failing) adds nothing rather than failing the caller.
 */
export async function sessionTreeTotals(
  store: SessionStore,
  key: SessionKey,
  events: readonly AgentEvent[],
  prices?: PriceTable,
  seen: Set<string> = new Set([key.id]),
): Promise<SessionTotals> {
  let totals = sessionTotals(events, prices);
  for (const id of childSessionIdsOf(events)) {
    if (seen.has(id)) continue; // a link back up the tree is damage, not a reason to loop
    seen.add(id);
    const childKey = { appName: key.appName, userId: key.userId, id };
    const child = await store.get(childKey).catch(() => undefined);
    if (child) totals = addTotals(totals, await sessionTreeTotals(store, childKey, child.events, prices, seen));
  }
  return totals;
}

/**
 * The totals of a session a run just worked on: `sessionTotals` of its events, and only when its
 * agent tools ran child sessions, those read from `store` too (`sessionTreeTotals`).
 */
export function sessionTotalsWithChildren(
  store: SessionStore,
  session: SessionKey & { readonly appName: string; readonly events: readonly AgentEvent[] },
  prices?: PriceTable,
): SessionTotals | Promise<SessionTotals> {
  if (!childSessionIdsOf(session.events).length) return sessionTotals(session.events, prices);
  return sessionTreeTotals(store, { appName: session.appName, userId: session.userId, id: session.id }, session.events, prices);
}

function addTotals(a: SessionTotals, b: SessionTotals): SessionTotals {
  return {
    usage: addUsage(a.usage, b.usage),
    modelCalls: a.modelCalls + b.modelCalls,
    cost: a.cost + b.cost,
    unpricedModelCalls: a.unpricedModelCalls + b.unpricedModelCalls,
  };
}
