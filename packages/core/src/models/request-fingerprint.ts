import type { Message } from '../messages/message.js';
import type { ModelRequest, ToolSpec } from './chat-model.js';
import { flatString } from '../messages/flat-string.js';
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
  /**
   * Which model call of its run this was (1-based, in the order the calls started): a replay
   * answers parallel agents in this order. Absent from a request described by a replay.
   */
  readonly call?: number;
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
 * One caller's last request: its leading system messages, its tool specs and settings, then the
 * other messages with their digests chained. An agent resends its history plus new messages with
 * the same instruction, tools and settings, so only the new messages are digested, and the parts
 * that did not change are not formatted again. Compared by identity; anything else is recomputed.
 */
export interface RequestChain {
  readonly systemRefs: Message[];
  system: number;
  readonly toolRefs: ToolSpec[];
  tools: number;
  toolNames: number;
  settingsOf: { toolChoice: unknown; settings: unknown; responseFormat: unknown } | undefined;
  settings: number;
  /** `system.tools.toolNames.settings.` as formatted for the parts above. */
  head: string;
  readonly refs: Message[];
  /** `chain[i]`: the digest of messages 0..i (after the system ones), in order. */
  readonly chain: number[];
  /** `digests[i]`: the digest of message i alone. */
  readonly digests: number[];
}

export const newRequestChain = (): RequestChain => ({
  systemRefs: [],
  system: DIGEST_START,
  toolRefs: [],
  tools: DIGEST_START,
  toolNames: DIGEST_START,
  settingsOf: undefined,
  settings: 0,
  head: '',
  refs: [],
  chain: [],
  digests: [],
});

/**
 * Describes `request` for a replay: its fingerprint and parts. Pass the caller's `RequestChain`
 * (kept across its calls, see there) so a growing history costs only its new messages; it then
 * holds the request's message chain (for `requestDifferences`).
 */
export function describeRequest(request: ModelRequest, cache: RequestChain = newRequestChain(), call?: number): RequestRecord {
  const messages = request.messages;
  const { refs, chain, digests } = cache;
  let start = 0;
  while (start < messages.length && (messages[start] as Message).role === 'system') start++;
  let changed = false;
  if (!sameRefs(cache.systemRefs, messages, start)) {
    let system = DIGEST_START;
    for (let i = 0; i < start; i++) system = mixNumber(system, messageDigest(messages[i] as Message));
    cache.system = system;
    changed = true;
  }
  const specs = request.tools ?? [];
  if (!sameRefs(cache.toolRefs, specs, specs.length)) {
    let tools = DIGEST_START;
    let toolNames = DIGEST_START;
    for (const spec of specs) {
      tools = mixNumber(tools, frozenDigest(spec));
      toolNames = mixString(toolNames, spec.name);
    }
    cache.tools = tools;
    cache.toolNames = toolNames;
    changed = true;
  }
  const last = cache.settingsOf;
  const format = request.responseFormat;
  if (
    !last ||
    last.toolChoice !== request.toolChoice ||
    last.settings !== request.settings ||
    (last.responseFormat !== format && !sameFormat(last.responseFormat as ModelRequest['responseFormat'], format))
  ) {
    let settings = mixNumber(request.toolChoice === undefined ? 0 : valueDigest(request.toolChoice), frozenDigest(request.settings));
    if (format) settings = mixNumber(mixNumber(settings, valueDigest({ ...format, schema: null })), frozenDigest(format.schema));
    cache.settingsOf = { toolChoice: request.toolChoice, settings: request.settings, responseFormat: format };
    cache.settings = settings;
    changed = true;
  }
  if (changed) cache.head = `${hex8(cache.system)}.${hex8(cache.tools)}.${hex8(cache.toolNames)}.${hex8(cache.settings)}.`;

  const count = messages.length - start;
  let same = 0;
  const limit = Math.min(count, refs.length);
  while (same < limit && refs[same] === messages[start + same]) same++;
  if (same < refs.length) {
    refs.length = same;
    chain.length = same;
    digests.length = same;
  }
  for (let i = same; i < count; i++) {
    const message = messages[start + i] as Message;
    const digest = messageDigest(message);
    refs.push(message);
    digests.push(digest);
    chain.push(mixNumber(i ? (chain[i - 1] as number) : DIGEST_START, digest));
  }

  const history = count >= 2 ? (chain[count - 2] as number) : DIGEST_START;
  const lastDigest = count ? (digests[count - 1] as number) : 0;
  const all = count ? (chain[count - 1] as number) : DIGEST_START;
  const { system, tools, settings } = cache;
  const a = mixNumber(mixNumber(mixNumber(mixNumber(mixNumber(DIGEST_START, system), tools), settings), count), all);
  const b = mixSecondLane(mixSecondLane(mixSecondLane(mixSecondLane(mixSecondLane(DIGEST_START, system), tools), settings), count), all);
  // Both are kept in every stored model response event: flat, not as trees of their pieces.
  const fingerprint = flatString(hex8(a) + hex8(b));
  const parts = flatString(`${cache.head}${count}.${hex8(history)}.${hex8(lastDigest)}`);
  return call === undefined ? { fingerprint, parts } : { fingerprint, parts, call };
}

/** True when `refs` holds the first `count` items of `items`, by identity; else makes it so and returns false. */
function sameRefs<T>(refs: T[], items: readonly T[], count: number): boolean {
  let same = refs.length === count;
  for (let i = 0; same && i < count; i++) same = refs[i] === items[i];
  if (same) return true;
  refs.length = 0;
  for (let i = 0; i < count; i++) refs.push(items[i] as T);
  return false;
}

/** Two response formats with the same fields (agents rebuild the object around the same schema). */
const sameFormat = (a: ModelRequest['responseFormat'], b: ModelRequest['responseFormat']): boolean =>
  !!a && !!b && a.schema === b.schema && a.name === b.name && a.strict === b.strict && a.description === b.description;

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
export function requestDifferences(recorded: RequestRecord, now: RequestRecord, chain: readonly number[], request: ModelRequest): string[] {
  const was = requestParts(recorded.parts);
  const is = requestParts(now.parts) as RequestParts;
  if (!was) return [`the recorded request fingerprint ${recorded.fingerprint} differs (no parts recorded)`];
  const out: string[] = [];
  if (was.system !== is.system) out.push('the system prompt / instruction differs');
  if (was.toolNames !== is.toolNames)
    out.push(`the tool list differs (now: ${(request.tools ?? []).map((t) => t.name).join(', ') || 'none'})`);
  else if (was.tools !== is.tools) out.push("a tool's description or parameter schema differs");
  if (was.settings !== is.settings) out.push('the settings, tool choice or response format differ');
  const messages = request.messages.slice(request.messages.length - is.messages);
  if (was.messages !== is.messages) {
    out.push(`the message count differs (recorded ${was.messages}, now ${is.messages})`);
    if (is.messages > was.messages && was.messages > 0) {
      // The recorded history plus its last message is the chain at that length: did the agent only add messages?
      const recordedAll = mixNumber(Number.parseInt(was.history, 16), Number.parseInt(was.last, 16));
      if ((chain[was.messages - 1] as number) === recordedAll >>> 0)
        out.push(`the recorded messages are unchanged; new after them: ${messages.slice(was.messages).map(describeMessage).join(', ')}`);
      else out.push('an earlier message differs too');
    }
  } else if (was.history !== is.history) out.push('an earlier message differs (before the last one)');
  if (was.messages === is.messages && was.last !== is.last && messages.length)
    out.push(`the last message differs: ${describeMessage(messages[messages.length - 1] as Message)}`);
  if (!out.length) out.push(`the request fingerprint differs (recorded ${recorded.fingerprint}, now ${now.fingerprint})`);
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
