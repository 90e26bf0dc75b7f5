import type { Message } from '../messages/message.js';
import type { ModelRequest } from '../models/chat-model.js';
import { DIGEST_START, frozenDigest, hex8, messageDigest, mixNumber, mixSecondLane, mixString, valueDigest } from './value-digest.js';

/**
 * What a stored model response records about the request that produced it: `meta.request` of the
 * event that stores the response. Constant size whatever the history's length.
 */
export interface RequestRecord {
  /** 16 hex digits: a hash of the canonical request (messages, tools, tool choice, settings, response format; tool-call ids left out). */
  readonly fingerprint: string;
  /**
   * The fingerprint's parts, so a replay can say what differs: `system.tools.toolNames.settings.count.history.last`
   * — digests (8 hex digits) of the leading system messages, the tool specs, the tool names, the
   * tool choice + settings + response format, then the number of other messages, the digest of all
   * of them but the last, and the last one's. Read it with `requestParts`.
   */
  readonly parts: string;
}

/** `RequestRecord.parts`, read. */
export interface RequestParts {
  readonly system: string;
  readonly tools: string;
  readonly toolNames: string;
  readonly settings: string;
  /** Messages after the leading system messages. */
  readonly messages: number;
  /** Digest of those messages but the last (a chain: order counts). */
  readonly history: string;
  /** Digest of the last message. */
  readonly last: string;
}

/**
 * One caller's last request (its leading system messages, then the other messages with their
 * digests chained): an agent resends its history plus new messages, so only the new ones are
 * digested. Compared by identity, message by message; anything else is simply recomputed.
 */
export interface RequestChain {
  readonly systemRefs: Message[];
  system: number;
  readonly refs: Message[];
  /** `chain[i]`: the digest of messages 0..i (after the system ones), in order. */
  readonly chain: number[];
  /** `digests[i]`: the digest of message i alone. */
  readonly digests: number[];
}

export const newRequestChain = (): RequestChain => ({ systemRefs: [], system: DIGEST_START, refs: [], chain: [], digests: [] });

/** A described request: its record, and its message chain (for `requestDifferences`). */
export interface DescribedRequest {
  readonly record: RequestRecord;
  readonly chain: readonly number[];
}

/**
 * Describes `request` for a replay: its fingerprint and parts. Pass the caller's `RequestChain`
 * (kept across its calls) so a growing history costs only its new messages.
 */
export function describeRequest(request: ModelRequest, cache: RequestChain = newRequestChain()): DescribedRequest {
  const messages = request.messages;
  const { systemRefs, refs, chain, digests } = cache;
  let start = 0;
  let sameSystem = true;
  while (start < messages.length && (messages[start] as Message).role === 'system') {
    if (systemRefs[start] !== messages[start]) sameSystem = false;
    start++;
  }
  if (!sameSystem || systemRefs.length !== start) {
    systemRefs.length = 0;
    let system = DIGEST_START;
    for (let i = 0; i < start; i++) {
      systemRefs.push(messages[i] as Message);
      system = mixNumber(system, messageDigest(messages[i] as Message));
    }
    cache.system = system;
  }
  const system = cache.system;

  const count = messages.length - start;
  let same = 0;
  const limit = Math.min(count, refs.length);
  while (same < limit && refs[same] === messages[start + same]) same++;
  refs.length = same;
  chain.length = same;
  digests.length = same;
  for (let i = same; i < count; i++) {
    const message = messages[start + i] as Message;
    const digest = messageDigest(message);
    refs.push(message);
    digests.push(digest);
    chain.push(mixNumber(i ? (chain[i - 1] as number) : DIGEST_START, digest));
  }

  let tools = DIGEST_START;
  let toolNames = DIGEST_START;
  const specs = request.tools;
  if (specs)
    for (const spec of specs) {
      tools = mixNumber(tools, frozenDigest(spec));
      toolNames = mixString(toolNames, spec.name);
    }
  const format = request.responseFormat;
  let settings = mixNumber(request.toolChoice === undefined ? 0 : valueDigest(request.toolChoice), frozenDigest(request.settings));
  if (format) settings = mixNumber(mixNumber(settings, valueDigest({ ...format, schema: null })), frozenDigest(format.schema));

  const history = count >= 2 ? (chain[count - 2] as number) : DIGEST_START;
  const last = count ? (digests[count - 1] as number) : 0;
  const all = count ? (chain[count - 1] as number) : DIGEST_START;
  let a = mixNumber(mixNumber(mixNumber(mixNumber(mixNumber(DIGEST_START, system), tools), settings), count), all);
  let b = mixSecondLane(mixSecondLane(mixSecondLane(mixSecondLane(mixSecondLane(DIGEST_START, system), tools), settings), count), all);
  a >>>= 0;
  b >>>= 0;
  return {
    record: {
      fingerprint: hex8(a) + hex8(b),
      parts: `${hex8(system)}.${hex8(tools)}.${hex8(toolNames)}.${hex8(settings)}.${count}.${hex8(history)}.${hex8(last)}`,
    },
    chain,
  };
}

/** Reads `RequestRecord.parts`; `undefined` when it is not in that format. */
export function requestParts(parts: string): RequestParts | undefined {
  const [system, tools, toolNames, settings, messages, history, last, extra] = parts.split('.');
  if (extra !== undefined || last === undefined || !/^\d+$/.test(messages as string)) return undefined;
  return {
    system: system as string,
    tools: tools as string,
    toolNames: toolNames as string,
    settings: settings as string,
    messages: Number(messages),
    history: history as string,
    last,
  };
}

/** What the agent's request `now` changes against the `recorded` one, one plain sentence each. */
export function requestDifferences(recorded: RequestRecord, now: DescribedRequest, request: ModelRequest): string[] {
  const was = requestParts(recorded.parts);
  const is = requestParts(now.record.parts) as RequestParts;
  if (!was) return [`the recorded request fingerprint ${recorded.fingerprint} differs (no parts recorded)`];
  const out: string[] = [];
  if (was.system !== is.system) out.push('the system prompt / instruction differs');
  if (was.toolNames !== is.toolNames) out.push(`the tool list differs (now: ${(request.tools ?? []).map((t) => t.name).join(', ') || 'none'})`);
  else if (was.tools !== is.tools) out.push("a tool's description or parameter schema differs");
  if (was.settings !== is.settings) out.push('the settings, tool choice or response format differ');
  const messages = request.messages.slice(request.messages.length - is.messages);
  if (was.messages !== is.messages) {
    out.push(`the message count differs (recorded ${was.messages}, now ${is.messages})`);
    if (is.messages > was.messages && was.messages > 0) {
      // The recorded history plus its last message is the chain at that length: did the agent only add messages?
      const recordedAll = mixNumber(Number.parseInt(was.history, 16), Number.parseInt(was.last, 16));
      if ((now.chain[was.messages - 1] as number) === recordedAll >>> 0)
        out.push(`the recorded messages are unchanged; new after them: ${messages.slice(was.messages).map(describeMessage).join(', ')}`);
      else out.push('an earlier message differs too');
    }
  } else if (was.history !== is.history) out.push('an earlier message differs (before the last one)');
  if (was.messages === is.messages && was.last !== is.last && messages.length)
    out.push(`the last message differs: ${describeMessage(messages[messages.length - 1] as Message)}`);
  if (!out.length) out.push(`the request fingerprint differs (recorded ${recorded.fingerprint}, now ${now.record.fingerprint})`);
  return out;
}

/** A message named for a difference: its role, and for tool messages which tools' results. */
function describeMessage(message: Message): string {
  const results = message.content.flatMap((b) => (b.type === 'tool_result' ? [`"${b.name}"`] : []));
  if (results.length) return `the result of tool ${results.join(', ')}`;
  const calls = message.content.flatMap((b) => (b.type === 'tool_call' ? [`"${b.name}"`] : []));
  if (calls.length) return `an assistant call of ${calls.join(', ')}`;
  return `a ${message.role} message`;
}
