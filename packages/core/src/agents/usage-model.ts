import type { AgentEvent } from '../events/agent-event.js';
import type { ChatModel } from '../models/chat-model.js';
import type { Usage } from '../models/usage.js';
import type { ModelMeta } from '../runner/session-totals.js';

/**
 * Which model reported each `usage` object, noted by the model-call primitive. Every agent stores
 * a response's usage by passing that same object to `ctx.event({ usage })`, so the event can be
 * stamped with `meta.model` there, in one place, without each agent (ReAct, planner, replanner,
 * decision calls) carrying the model along. Weak: a usage nobody stores is forgotten.
 */
const producers = new WeakMap<Usage, ModelMeta>();

/** Notes that `model` reported `usage` (called once a model call succeeded). */
export function noteUsageModel(usage: Usage | undefined, model: ChatModel): void {
  if (usage) producers.set(usage, model.provider ? { id: model.id, provider: model.provider } : { id: model.id });
}

/** Adds `meta.model` to an event carrying a model call's usage, so the stored session can be priced later. */
export function stampUsageModel(event: { usage?: Usage; meta?: AgentEvent['meta'] }): void {
  const model = event.usage && producers.get(event.usage);
  if (model && event.meta?.model === undefined) event.meta = { ...event.meta, model };
}
