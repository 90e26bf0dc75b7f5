import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { SessionCorruptError } from '../../errors/session-errors.js';
import type { SessionKey } from '../session.js';
import {
  acquireFrom,
  assertAppendLease,
  isCurrentLease,
  liveHolderOf,
  renewFrom,
  type LeaseHolder,
  type LeaseOptions,
  type LeaseRecord,
  type SessionLease,
} from '../session-lease.js';
import { errorCode, replaceFile } from './durable-fs.js';
import { isHolderGone, thisProcess } from '../holder-process.js';
import type { FileLayout } from './file-names.js';

/**
 * Runs `change` holding the session's lock (the session's writer: a lock it still holds after an
 * append is used at once, not waited for). `SessionNotFoundError` when the session does not exist.
 */
export type UnderSessionLock = <T>(key: SessionKey, change: () => Promise<T>) => Promise<T>;

/** The lease file's schema version; a file with another one is refused, never guessed at. */
export const LEASE_FILE_SCHEMA_VERSION = 1;

const leaseFileSchema = z.object({
  schemaVersion: z.literal(LEASE_FILE_SCHEMA_VERSION),
  /** The last token handed out for this session. */
  token: z.number().int().nonnegative(),
  /** The holder, with the process that took the lease (so a dead one on this host is seen at once); null once released. */
  holder: z
    .object({
      owner: z.string(),
      expiresAt: z.number(),
      host: z.string(),
      boot: z.string().optional(),
      pidNamespace: z.string().optional(),
      pid: z.number().int(),
      start: z.string().optional(),
    })
    .nullable(),
});
type LeaseFile = z.infer<typeof leaseFileSchema>;

/**
 * The file store's session leases, for one machine: a `<session>.lease` JSON file next to the
 * session's log, replaced atomically (write, rename) under the session's lock, so a lease change
 * and an append never interleave. A lease is live until it expires or, on this host, until the
 * process that took it is gone (then it is taken over at once, no need to wait for expiry).
 *
 * Lease files are not flushed: a lease change a power loss takes back belonged to a process
 * that died with the machine, and leases are for one machine, so no live holder can be fenced
 * by a token the disk forgot. (A process crash loses nothing: the page cache survives it.) Such a
 * loss may leave the file empty, which reads as a session never leased.
 */
export class FileLeases {
  constructor(
    private readonly layout: FileLayout,
    private readonly underLock: UnderSessionLock,
    private readonly relative: (path: string) => string,
  ) {}

  acquire(key: SessionKey, options: LeaseOptions): Promise<SessionLease> {
    return this.update(key, async (file) => {
      const record = toRecord(file);
      const holder = file?.holder;
      // A holder whose process on this machine (and pid namespace) has exited holds nothing, expired or not.
      const live = holder && !(await isHolderGone(holder)) ? record : { token: record.token };
      const lease = acquireFrom(key.id, live, options, Date.now());
      return { write: withHolder(lease), result: lease };
    });
  }

  renew(key: SessionKey, lease: SessionLease, ttlMs: number): Promise<SessionLease> {
    return this.update(key, async (file) => {
      const renewed = renewFrom(key.id, toRecord(file), lease, ttlMs, Date.now());
      return { write: withHolder(renewed), result: renewed };
    });
  }

  release(key: SessionKey, lease: SessionLease): Promise<void> {
    return this.update(key, async (file) => {
      if (!isCurrentLease(toRecord(file), lease)) return { result: undefined };
      return { write: { schemaVersion: LEASE_FILE_SCHEMA_VERSION, token: lease.token, holder: null }, result: undefined };
    });
  }

  /** The live holder, read without the lock (a lease file is replaced whole, never half-written). */
  async holder(key: SessionKey): Promise<LeaseHolder | undefined> {
    const file = await this.read(key);
    const holder = file?.holder;
    if (!holder || (await isHolderGone(holder))) return undefined;
    return liveHolderOf(toRecord(file), Date.now());
  }

  /**
   * Throws `LeaseLostError` unless `lease` is the session's current one. Call it holding the
   * session's lock, so the check is atomic with the append's version check.
   */
  async assertCurrent(key: SessionKey, lease: SessionLease): Promise<void> {
    assertAppendLease(key.id, toRecord(await this.read(key)), lease);
  }

  /** Takes the session lock, reads the lease file, applies `change` and writes what it returns. */
  private update<T>(key: SessionKey, change: (file: LeaseFile | undefined) => Promise<{ write?: LeaseFile; result: T }>): Promise<T> {
    return this.underLock(key, async () => {
      const { write, result } = await change(await this.read(key));
      if (write) await replaceFile(this.layout.leaseFile(key), Buffer.from(JSON.stringify(write)), { flush: false });
      return result;
    });
  }

  /** The lease file, or `undefined` when the session never had a lease. */
  private async read(key: SessionKey): Promise<LeaseFile | undefined> {
    const path = this.layout.leaseFile(key);
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return undefined;
      throw error;
    }
    // Empty or zero-filled: an unflushed lease write a power loss cut short (see the class comment).
    if (/^\0*$/.test(text)) return undefined;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (cause) {
      throw new SessionCorruptError(key.id, `its lease file ${this.relative(path)} is not valid JSON`, undefined, { cause });
    }
    const checked = leaseFileSchema.safeParse(parsed);
    if (!checked.success)
      throw new SessionCorruptError(
        key.id,
        `its lease file ${this.relative(path)} is not a lease record of schema version ${LEASE_FILE_SCHEMA_VERSION}`,
      );
    return checked.data;
  }
}

function toRecord(file: LeaseFile | undefined): LeaseRecord {
  if (!file) return { token: 0 };
  return file.holder
    ? { token: file.token, holder: { owner: file.holder.owner, expiresAt: file.holder.expiresAt } }
    : { token: file.token };
}

function withHolder(lease: SessionLease): LeaseFile {
  return {
    schemaVersion: LEASE_FILE_SCHEMA_VERSION,
    token: lease.token,
    holder: { owner: lease.owner, expiresAt: lease.expiresAt, ...thisProcess() },
  };
}
