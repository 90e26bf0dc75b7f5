import { createHash } from 'node:crypto';
import { readdir, readFile, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { AgentEvent } from '../../events/agent-event.js';
import { SessionCorruptError, SessionNotFoundError } from '../../errors/session-errors.js';
import { assertBlobId, isBlobId } from '../blobs/blob-id.js';
import type { ResolvedBlobLimits } from '../blobs/blob-limits.js';
import { blobsToStore, type ExtractedBlobs, extractBlobs } from '../blobs/extract-blobs.js';
import type { SessionKey } from '../session.js';
import { createFileExclusive, errorCode, syncDir } from './durable-fs.js';
import type { FileLayout } from './file-names.js';

/**
 * A file store's blobs: `sessions/<app>/<user>/<id>.blobs/<sha256>`, beside the session's log,
 * one file per distinct image or file (content-addressed: the same bytes twice are one file).
 * Each is written under a temporary name, flushed, linked into place and its directory flushed
 * before the event naming it is appended, so a log never names a blob a crash could lose.
 * An append's blobs are written by its session's writer, holding the session's lock and once the
 * append passed its version and lease checks: a refused append leaves no blob behind to count
 * toward `maxSessionBlobBytes` or to read back, and no other writer can start naming a blob
 * while it is being taken back.
 */
export class FileBlobs {
  constructor(
    private readonly layout: FileLayout,
    private readonly limits: ResolvedBlobLimits,
    private readonly relative: (path: string) => string,
  ) {}

  /**
   * Takes the inline media out of `events` (`found.events` name blobs instead), checking each
   * block's size and base64 before anything is written.
   */
  extract(key: SessionKey, events: readonly AgentEvent[]): ExtractedBlobs {
    return extractBlobs(key.id, events, this.limits);
  }

  /**
   * Writes the blobs of `found` the session does not hold yet, after checking it holds those the
   * events name and that the new ones fit `maxSessionBlobBytes`. Returns the ids of the files it
   * created, for `discard` should the events naming them not be committed.
   */
  async put(key: SessionKey, found: ExtractedBlobs): Promise<string[]> {
    if (!found.blobs.length && !found.named.size) return [];
    const fresh = blobsToStore(key.id, found, await this.sizes(key), this.limits);
    const created: string[] = [];
    for (const blob of fresh) if (await createFileExclusive(this.layout.blobFile(key, blob.id), blob.bytes)) created.push(blob.id);
    return created;
  }

  /**
   * Removes blobs `put` created for events that were then not committed. Only call it holding the
   * session's lock (or before the session exists): a blob is content-addressed, so another append
   * may otherwise have found it and named it meanwhile.
   */
  async discard(key: SessionKey, ids: readonly string[]): Promise<void> {
    if (!ids.length) return;
    for (const id of ids) await rm(this.layout.blobFile(key, id), { force: true });
    await syncDir(this.layout.blobDir(key));
  }

  /** The bytes of blob `id`, checked against their SHA-256; `SessionCorruptError` when missing or damaged. */
  async read(key: SessionKey, id: string): Promise<Uint8Array> {
    assertBlobId(id);
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
