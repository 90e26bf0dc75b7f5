import type { Message } from '../messages/message.js';

/**
 * What one run's successive requests showed: the last request's messages, and how many of them,
 * from the start, passed a per-message check. A run resends its history on every call, so a check
 * of every message on every call costs as much as the history is long (quadratic over a run).
 */
export interface PrefixMemo {
  prev: readonly Message[] | undefined;
  clean: number;
}

/**
 * How many leading messages of `messages` pass `passes`, reusing what the last request showed: the
 * known head is compared by identity (the same array grown by appending, or a new one with the same
 * head), and only the messages after it are checked. Records this request in `memo`.
 */
export function checkedPrefix(memo: PrefixMemo, messages: readonly Message[], passes: (message: Message) => boolean): number {
  const prev = memo.prev;
  let i = 0;
  if (prev) {
    const known = Math.min(memo.clean, messages.length);
    if (prev === messages) i = known;
    else while (i < known && messages[i] === prev[i]) i++;
  }
  while (i < messages.length && passes(messages[i] as Message)) i++;
  memo.prev = messages;
  memo.clean = i;
  return i;
}
