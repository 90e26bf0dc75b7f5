import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { SessionKey } from '../session.js';

/** Encoded names longer than this are shortened with a hash (file systems cap names at 255 bytes). */
const MAX_NAME = 120;
const KEEP = 80;
/** Names Windows refuses whatever their extension. */
const RESERVED = /^(con|prn|aux|nul|com\d|lpt\d)$/;

/**
 * Encodes any string (ids, user ids, app names) as a safe file name.
 *
 * Only `a-z`, `0-9`, `_` and `-` are kept; every other UTF-8 byte becomes `%XX`. Upper case is
 * encoded too, so two ids that differ only in case never share a file on case-insensitive file
 * systems (macOS, Windows). `.`, `/` and `\` are always encoded, so no name can climb out of the
 * store's directory. The empty string becomes `%` (never a valid escape); long names keep a
 * readable prefix plus a hash. Different inputs always give different names (the hash aside);
 * each file also records its full key, and the store checks it on load.
 */
export function encodeFileName(name: string): string {
  let out = '';
  for (const byte of Buffer.from(name, 'utf8')) {
    const safe = (byte >= 0x61 && byte <= 0x7a) || (byte >= 0x30 && byte <= 0x39) || byte === 0x5f || byte === 0x2d;
    out += safe ? String.fromCharCode(byte) : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  if (out === '') return '%';
  if (RESERVED.test(out)) out = `%${out.charCodeAt(0).toString(16).toUpperCase()}${out.slice(1)}`;
  if (out.length <= MAX_NAME) return out;
  // Cut at an escape boundary so the prefix stays decodable by eye; `~` is never produced above.
  let cut = KEEP;
  while (cut > 0 && out.lastIndexOf('%', cut - 1) > cut - 3) cut--;
  return `${out.slice(0, cut)}~${createHash('sha256').update(name, 'utf8').digest('hex').slice(0, 40)}`;
}

/** Where a `FileSessionStore` keeps each kind of record, below its `dir`. */
export class FileLayout {
  constructor(readonly dir: string) {}

  /** The directory holding one user's sessions in one app. */
  userSessionsDir(appName: string, userId: string): string {
    return join(this.dir, 'sessions', encodeFileName(appName), encodeFileName(userId));
  }

  /** The append-only JSONL log of one session. */
  sessionFile(key: SessionKey): string {
    return join(this.userSessionsDir(key.appName, key.userId), `${encodeFileName(key.id)}${SESSION_FILE_SUFFIX}`);
  }

  /** The lease of one session (see lease-file.ts): next to its log, a name no log can have. */
  leaseFile(key: SessionKey): string {
    return join(this.userSessionsDir(key.appName, key.userId), `${encodeFileName(key.id)}${LEASE_FILE_SUFFIX}`);
  }

  /** The blobs (bytes of images and files) of one session: a directory beside its log, a name no log can have. */
  blobDir(key: SessionKey): string {
    return join(this.userSessionsDir(key.appName, key.userId), `${encodeFileName(key.id)}${BLOB_DIR_SUFFIX}`);
  }

  /** One blob of a session, named by its SHA-256 (`id`, checked to be 64 hex digits by the caller). */
  blobFile(key: SessionKey, id: string): string {
    return join(this.blobDir(key), id);
  }

  /** The `app:` state of one app. */
  appStateFile(appName: string): string {
    return join(this.dir, 'app-state', `${encodeFileName(appName)}.json`);
  }

  /** The `user:` state of one user in one app. */
  userStateFile(appName: string, userId: string): string {
    return join(this.dir, 'user-state', encodeFileName(appName), `${encodeFileName(userId)}.json`);
  }
}

export const SESSION_FILE_SUFFIX = '.jsonl';
export const LEASE_FILE_SUFFIX = '.lease';
export const BLOB_DIR_SUFFIX = '.blobs';
