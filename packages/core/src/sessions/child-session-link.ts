import { createHash } from 'node:crypto';
import { z } from 'zod';
import { MAX_ID_LENGTH } from './session-key-rules.js';

/**
 * Where a child session (an agent run as a tool) comes from. Stored in the `meta.parent` of the
 * child's first event, so a UI can go from the child to the parent's tool call; the parent's
 * tool result (and interrupt) events carry `meta.childSessionId` for the other direction.
 */
export interface ChildSessionLink {
  readonly schemaVersion: 1;
  readonly parentSessionId: string;
  readonly parentInvocationId: string;
  readonly toolCallId: string;
  readonly toolName: string;
  /** The calling agent's path in the parent run; nested events are shown under `<path>/<toolName>/`. */
  readonly path: string;
}

export const childSessionLinkSchema = z.object({
  schemaVersion: z.literal(1),
  parentSessionId: z.string(),
  parentInvocationId: z.string(),
  toolCallId: z.string(),
  toolName: z.string(),
  path: z.string(),
});

/** The `meta.kind` of a child session's first event (the tool's input). */
export const AGENT_TOOL_INPUT_KIND = 'agent-tool-input';

const HASH_LENGTH = 16;

/**
 * The child session id of one tool call: deterministic (a resume in another process finds the
 * same session), distinct for distinct (parent session, invocation, tool call) — the hash covers
 * all three exactly, the readable prefix is only for people — and a valid identifier: at most
 * `MAX_ID_LENGTH` code units, no control characters, no broken surrogate pairs.
 */
export function childSessionId(parentSessionId: string, parentInvocationId: string, toolCallId: string): string {
  const hash = createHash('sha256')
    .update(JSON.stringify([parentSessionId, parentInvocationId, toolCallId]))
    .digest('hex')
    .slice(0, HASH_LENGTH);
  const readable = `${parentSessionId}/${toolCallId.replace(/[^A-Za-z0-9_.:-]/g, '_')}`;
  let prefix = readable.slice(0, MAX_ID_LENGTH - HASH_LENGTH - 1);
  // A cut between the halves of a surrogate pair would leave malformed UTF-16 (an invalid id).
  if (/[\uD800-\uDBFF]$/.test(prefix)) prefix = prefix.slice(0, -1);
  return `${prefix}#${hash}`;
}

/**
 * Whether `id` has the shape `childSessionId` gives (`…#` and 16 hex digits): only such sessions
 * can be child sessions, so only they are read before a run takes its lease, to refuse them early.
 */
export function mayBeChildSessionId(id: string): boolean {
  return id.length > HASH_LENGTH && id.charCodeAt(id.length - HASH_LENGTH - 1) === 35 /* # */ && /^[0-9a-f]+$/.test(id.slice(-HASH_LENGTH));
}

/** The link stored in a child session's first event, or `undefined` when it has none (or a foreign one). */
export function readChildSessionLink(meta: Readonly<Record<string, unknown>> | undefined): ChildSessionLink | undefined {
  if (meta?.kind !== AGENT_TOOL_INPUT_KIND) return undefined;
  const parsed = childSessionLinkSchema.safeParse(meta.parent);
  return parsed.success ? parsed.data : undefined;
}
