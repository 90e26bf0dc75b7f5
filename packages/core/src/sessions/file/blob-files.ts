import { createHash } from 'node:crypto';
import { readdir, readFile, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { AgentEvent } from '../../events/agent-event.js';
import { InvalidArgumentError } from '../../errors/replan-error.js';
import { SessionCorruptError, SessionNotFoundError } from '../../errors/session-errors.js';
import { isBlobId } from '../blobs/blob-id.js';
import type { ResolvedBlobLimits } from '../blobs/blob-limits.js';
import { blobsToStore, extractBlobs } from '../blobs/extract-blobs.js';
import type { SessionKey } from '../session.js';
import { createFileExclusive, errorCode, syncDir } from './durable-fs.js';
import type { FileLayout } from './file-names.js';

/**
 * A file store's blobs: `sessions/<app>/<user>/<id>.blobs/<sha256>`, beside the session's log,
 * one file per distinct image or file (content-addressed: the same bytes twice are one file).
 * Each is written under a temporary name, flushed, linked into place and its directory flushed
 * before the event naming it is appended, so a log never names a blob a crash could lose.
 */
export class FileBlobs {
  constructor(
    private readonly layout: FileLayout,
    private readonly limits: ResolvedBlobLimits,
    private readonly relative: (path: string) => string,
  ) {}

  /**
   * Stores the inline media of `events` as blobs and returns the events naming them (the same
   * events when they hold none). `exists` is false while `create` writes the session's first events.
   */
  async put(key: SessionKey, events: AgentEvent[], exists = true): Promise<AgentEvent[]> {
    const found = extractBlobs(key.id, events, this.limits);
    if (!found.blobs.length && !found.named.size) return found.events;
    if (exists) await this.assertSession(key);
    const fresh = blobsToStore(key.id, found, await this.sizes(key), this.limits);
    for (const blob of fresh) await createFileExclusive(this.layout.blobFile(key, blob.id), blob.bytes);
    return found.events;
  }

  /** The bytes of blob `id`, checked against their SHA-256; `SessionCorruptError` when missing or damaged. */
  async read(key: SessionKey, id: string): Promise<Uint8Array> {
    if (!isBlobId(id)) throw new InvalidArgumentError(`"${String(id).slice(0, 80)}" is not a blob id (64 lowercase hex digits).`);
    const path = this.layout.blobFile(key, id);
    let bytes: Buffer;
    try {
      bytes = await readFile(path);
    } catch (error) {
      if (errorCode(error) !== 'ENOENT') throw error;
      await this.assertSession(key);
      throw new SessionCorruptError(key.id, `blob "${id}" is missing from the store (${this.relative(path)})`);
    }
    if (createHash('sha256').update(bytes).digest('hex') !== id)
      throw new SessionCorruptError(key.id, `blob "${id}" in ${this.relative(path)} does not hold the bytes it is named after`);
    return bytes;
  }

  /** Removes the session's blobs (after its log): they belong to no other session. */
  async remove(key: SessionKey): Promise<void> {
    const dir = this.layout.blobDir(key);
    await rm(dir, { recursive: true, force: true });
    await syncDir(dirname(dir)).catch(() => undefined);
  }

  /** The session's stored blobs and their sizes (temporary files of an unfinished write left out). */
  private async sizes(key: SessionKey): Promise<Map<string, number>> {
    const dir = this.layout.blobDir(key);
    const sizes = new Map<string, number>();
    let names: string[];
    try {
      names = await readdir(dir);
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return sizes;
      throw error;
    }
    for (const name of names) if (isBlobId(name)) sizes.set(name, (await stat(join(dir, name))).size);
    return sizes;
  }

  private async assertSession(key: SessionKey): Promise<void> {
    try {
      await stat(this.layout.sessionFile(key));
    } catch (error) {
      if (errorCode(error) === 'ENOENT') throw new SessionNotFoundError(key.appName, key.userId, key.id);
      throw error;
    }
  }
}
