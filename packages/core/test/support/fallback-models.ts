import type { ChatModel, Message } from '@replan/core';

/** An error shaped like an HTTP failure of any SDK: a `status` and a name. */
export const httpError = (status: number, name = 'ProviderError') => Object.assign(new Error(`HTTP ${status}`), { status, name });

/** `model`, tagged as served by `provider` (what a provider package sets). */
export const withProvider = <M extends ChatModel>(model: M, provider: string): M => Object.assign(model, { provider });

export const user = (text: string): Message => ({ role: 'user', content: [{ type: 'text', text }] });
