import { randomUUID } from 'node:crypto';
import type { ToolCallBlock } from '@replan/core';
import { isRecord, nonEmptyString, type Json } from '../reasoning/json.js';

interface PendingCall {
  id: string;
  name: string;
  args: string;
  signature?: string;
}

/** What one tool-call delta added, for a `tool-call-delta` stream part. */
export interface ToolCallDelta {
  readonly index: number;
  readonly id?: string;
  readonly name?: string;
  readonly argsDelta: string;
}

/**
 * Assembles tool calls from deltas. A delta with an `index` goes to the call of that index (a
 * different `id` at a used index starts a new call). Without an `index` (Gemini), a delta with a
 * new `id` starts a call and one without continues the last. Argument text is only appended —
 * parsed once, when the message is complete. Ids are kept byte for byte.
 */
export class ToolCallAccumulator {
  private readonly calls: PendingCall[] = [];
  private readonly byIndex = new Map<number, number>();

  get size(): number {
    return this.calls.length;
  }

  /** Adds the `tool_calls` of a delta (`whole` for a complete message, where each element is one call). */
  push(toolCalls: readonly unknown[], whole: boolean): ToolCallDelta[] {
    const out: ToolCallDelta[] = [];
    for (const raw of toolCalls) {
      if (!isRecord(raw)) continue;
      const fn = isRecord(raw.function) ? raw.function : {};
      const id = nonEmptyString(raw.id);
      const slot = whole ? this.open() : this.slotOf(raw, id);
      const call = this.calls[slot] as PendingCall;
      if (id && !call.id) call.id = id;
      const name = nonEmptyString(fn.name);
      if (name && !call.name) call.name = name;
      const argsDelta = argumentsText(fn.arguments);
      call.args += argsDelta;
      const signature = thoughtSignatureOf(raw, fn);
      if (signature) call.signature = signature;
      if (id || name || argsDelta) out.push({ index: slot, ...(id ? { id } : {}), ...(name ? { name } : {}), argsDelta });
    }
    return out;
  }

  private open(): number {
    this.calls.push({ id: '', name: '', args: '' });
    return this.calls.length - 1;
  }

  private slotOf(raw: Json, id: string | undefined): number {
    if (typeof raw.index === 'number') {
      const known = this.byIndex.get(raw.index);
      const existing = known === undefined ? undefined : this.calls[known];
      if (known !== undefined && !(id && existing?.id && existing.id !== id)) return known;
      const slot = this.open();
      this.byIndex.set(raw.index, slot);
      return slot;
    }
    const last = this.calls.at(-1);
    if (!last || (id && last.id && last.id !== id)) return this.open();
    return this.calls.length - 1;
  }

  /** The assembled calls; arguments that are not a JSON object give `rawArgs` and `argsError`. */
  blocks(): ToolCallBlock[] {
    return this.calls.map((c) => {
      // A server that sent no id gets one, made once so every view of the message agrees.
      if (!c.id) c.id = `call_${randomUUID().replace(/-/g, '').slice(0, 24)}`;
      return {
        type: 'tool_call',
        id: c.id,
        name: c.name,
        ...parseArguments(c.args),
        ...(c.signature ? { signature: c.signature } : {}),
      };
    });
  }
}

function argumentsText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined || value === null) return '';
  return JSON.stringify(value); // a server that sends an object instead of a string
}

/** Parses a call's final argument text; `{}` for an empty text. */
export function parseArguments(raw: string): Pick<ToolCallBlock, 'args' | 'rawArgs' | 'argsError'> {
  if (!raw.trim()) return { args: {} };
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    return { args: {}, rawArgs: raw, argsError: (error as Error).message };
  }
  if (!isRecord(value))
    return {
      args: {},
      rawArgs: raw,
      argsError: `the arguments are ${Array.isArray(value) ? 'an array' : typeof value}, not a JSON object`,
    };
  return { args: value };
}

/** Gemini's thought signature on a tool call: `extra_content.google` or LiteLLM's `provider_specific_fields`. */
function thoughtSignatureOf(call: Json, fn: Json): string | undefined {
  const google = isRecord(call.extra_content) ? call.extra_content.google : undefined;
  const fromGoogle = isRecord(google) ? nonEmptyString(google.thought_signature) : undefined;
  if (fromGoogle) return fromGoogle;
  for (const fields of [call.provider_specific_fields, fn.provider_specific_fields]) {
    if (!isRecord(fields)) continue;
    const single = nonEmptyString(fields.thought_signature);
    if (single) return single;
    if (Array.isArray(fields.thought_signatures)) {
      const first = fields.thought_signatures.find((s): s is string => typeof s === 'string' && s !== '');
      if (first) return first;
    }
  }
  return undefined;
}
