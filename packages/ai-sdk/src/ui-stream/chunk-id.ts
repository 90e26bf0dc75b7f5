import { createHash } from 'node:crypto';
import type { SessionKey } from '@replan/core';
import { UIStreamError } from './ui-stream-errors.js';

/**
 * A chunk's id: `<session tag>:<seq>.<n>` for the n-th chunk made from the stored event at position
 * `seq` (1-based) of the session's log, `<session tag>:<seq>+<k>` for the k-th live-only chunk
 * after it (streamed deltas and the end of an interrupted run: never stored, never replayed). The
 * tag ties an id to its session, so an id from another session's stream is refused.
 */
export interface ChunkPosition {
  readonly seq: number;
  /** Index among the stored event's chunks; `undefined` for a live-only chunk. */
  readonly n?: number;
  /** Index among the live-only chunks after `seq`. */
  readonly k?: number;
}

/** Eight hex digits of a hash of the session key: short, and distinct for distinct sessions in practice. */
export function sessionTag(key: SessionKey): string {
  return createHash('sha256')
    .update(JSON.stringify([key.appName, key.userId, key.id]))
    .digest('hex')
    .slice(0, 8);
}

export function formatChunkId(tag: string, position: ChunkPosition): string {
  return position.n === undefined ? `${tag}:${position.seq}+${position.k ?? 0}` : `${tag}:${position.seq}.${position.n}`;
}

const ID = /^([0-9a-f]{8}):(\d{1,12})(?:\.(\d{1,9})|\+(\d{1,9}))$/;

/** Reads a resume id of `tag`'s session (a `UIStreamError` of kind `resume_id` when it is not one). */
export function parseChunkId(id: string, tag: string): ChunkPosition {
  const match = ID.exec(id);
  if (!match) throw UIStreamError.resumeId(id, 'malformed', 'it is not a chunk id of a replan UI message stream');
  if (match[1] !== tag) throw UIStreamError.resumeId(id, 'other-session', "it comes from another session's stream");
  const seq = Number(match[2]);
  return match[3] !== undefined ? { seq, n: Number(match[3]) } : { seq, k: Number(match[4]) };
}
