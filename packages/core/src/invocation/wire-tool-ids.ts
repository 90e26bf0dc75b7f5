import { createHash } from 'node:crypto';
import type { ContentBlock } from '../messages/content-block.js';
import type { Message } from '../messages/message.js';
import type { ModelRequest } from '../models/chat-model.js';
import { checkedPrefix, type PrefixMemo } from './checked-prefix.js';

/**
 * The tool-call ids every provider accepts: Anthropic (and the providers behind LiteLLM that
 * follow it) reject a request naming a call id outside `^[a-zA-Z0-9_-]+$`.
 */
const WIRE_SAFE = /^[A-Za-z0-9_-]+$/;

const HASH_LENGTH = 12;
const READABLE_LENGTH = 48;

/** Whether `id` can be sent to any provider as it is. */
export const isWireSafeToolId = (id: string): boolean => WIRE_SAFE.test(id);

/**
 * The id a stored tool-call id is sent as when it is not wire-safe (a compensation's
 * `<callId>:compensate`, a call id some model or tool wrote with other characters): its safe
 * characters for people, then a hash of the whole id, so distinct ids stay distinct and the same
 * id always maps the same way (replay fingerprints and prompt caches stay stable). `salt` tells
 * apart the rare id whose mapping another id of the request already holds.
 */
export function wireToolId(id: string, salt = 0): string {
  const hash = createHash('sha256')
    .update(salt ? `${salt}\u0000${id}` : id)
    .digest('hex')
    .slice(0, HASH_LENGTH);
  const readable = id.replace(/[^A-Za-z0-9_-]+/g, '_').slice(0, READABLE_LENGTH);
  return `${readable}_${hash}`;
}

const unsafeIdOf = (block: ContentBlock): string | undefined => {
  if (block.type === 'tool_call') return WIRE_SAFE.test(block.id) ? undefined : block.id;
  if (block.type === 'tool_result') return WIRE_SAFE.test(block.toolCallId) ? undefined : block.toolCallId;
  return undefined;
};

const namesOnlySafeIds = (message: Message): boolean => message.content.every((b) => unsafeIdOf(b) === undefined);

/** Per invocation (`memoKey`): how much of the last request's head names only safe ids (`checkedPrefix`). */
const memos = new WeakMap<object, PrefixMemo>();

/**
 * The request as a model is sent it: every tool-call id not wire-safe replaced, in calls and
 * results alike, by `wireToolId` (safe ids, the models' own, go as they are). The log keeps the
 * stored ids; only the wire changes, and nothing maps back: a model never answers with an old
 * call's id. Returns `request` itself when every id is safe (the usual case: no copy). `memoKey`
 * (the invocation's services) lets successive calls of one run skip the history already checked.
 */
export function withWireSafeToolIds(request: ModelRequest, memoKey: object = {}): ModelRequest {
  let memo = memos.get(memoKey);
  if (!memo) {
    memo = { prev: undefined, clean: 0 };
    memos.set(memoKey, memo);
  }
  const safe = checkedPrefix(memo, request.messages, namesOnlySafeIds);
  if (safe === request.messages.length) return request;
  const unsafe = new Set<string>();
  for (const message of request.messages.slice(safe))
    for (const block of message.content) {
      const id = unsafeIdOf(block);
      if (id !== undefined) unsafe.add(id);
    }
  if (!unsafe.size) return request;
  // Ids already on the wire: a mapped id never takes one of them (nor another mapped id's).
  const taken = new Set<string>();
  for (const message of request.messages)
    for (const block of message.content) {
      if (block.type === 'tool_call' && !unsafe.has(block.id)) taken.add(block.id);
      if (block.type === 'tool_result' && !unsafe.has(block.toolCallId)) taken.add(block.toolCallId);
    }
  const mapped = new Map<string, string>();
  for (const id of unsafe) {
    let wire = wireToolId(id);
    for (let salt = 1; taken.has(wire); salt++) wire = wireToolId(id, salt);
    taken.add(wire);
    mapped.set(id, wire);
  }
  const messages = request.messages.map((message): Message => {
    if (!message.content.some((b) => unsafeIdOf(b) !== undefined)) return message;
    const content = message.content.map((block): ContentBlock => {
      if (block.type === 'tool_call') return mapped.has(block.id) ? { ...block, id: mapped.get(block.id) as string } : block;
      if (block.type === 'tool_result' && mapped.has(block.toolCallId))
        return { ...block, toolCallId: mapped.get(block.toolCallId) as string };
      return block;
    });
    return { ...message, content };
  });
  return { ...request, messages };
}
