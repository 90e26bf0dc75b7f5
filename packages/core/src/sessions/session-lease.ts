import { InvalidArgumentError } from '../errors/replan-error.js';
import { LeaseLostError, SessionBusyError } from '../errors/session-errors.js';

/**
 * A run's hold on a session's invocation: who holds it, its fencing token, and until when.
 * Appends that carry it are refused once another run took the session over.
 */
export interface SessionLease {
  /** Who holds it, e.g. `${hostname}:${pid}:${random}`: a Runner's or worker's identity. */
  readonly owner: string;
  /** The fencing token: strictly increasing per session, never reused (also not after a release). */
  readonly token: number;
  /** When it expires, epoch ms on the store's clock (PostgreSQL's `now()` for that store). */
  readonly expiresAt: number;
}

/** The live holder of a session's lease (`SessionStore.leaseHolder`). */
export interface LeaseHolder {
  readonly owner: string;
  /** When the lease expires unless renewed, epoch ms on the store's clock. */
  readonly expiresAt: number;
}

export interface LeaseOptions {
  readonly owner: string;
  /** How long the lease lasts unless renewed, in ms. */
  readonly ttlMs: number;
}

/**
 * What a store keeps about a session's lease: the last token handed out (0 before the first) and
 * the live holder, if any (`undefined` once released). A store-author helper: the in-memory and
 * file stores decide with the functions below; PostgreSQL decides the same way in SQL.
 */
export interface LeaseRecord {
  readonly token: number;
  readonly holder?: { readonly owner: string; readonly expiresAt: number };
}

/** The longest lease owner id, in UTF-16 code units. */
export const MAX_LEASE_OWNER_LENGTH = 512;
/** The longest lease: a day. Longer would leave a crashed holder's session stuck for too long. */
export const MAX_LEASE_TTL_MS = 86_400_000;

/** Checks a lease owner: a non-empty string without control characters (`InvalidArgumentError`). */
export function assertLeaseOwner(owner: unknown): asserts owner is string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused.
  if (typeof owner !== 'string' || owner.length === 0 || owner.length > MAX_LEASE_OWNER_LENGTH || /[\u0000-\u001f\u007f]/.test(owner))
    throw new InvalidArgumentError(
      `A lease owner must be a non-empty string of at most ${MAX_LEASE_OWNER_LENGTH} characters without control characters, ` +
        `got ${typeof owner === 'string' ? JSON.stringify(owner.slice(0, 40)) : typeof owner}.`,
    );
}

/** Checks a lease duration: a positive integer number of ms, at most a day (`InvalidArgumentError`). */
export function assertLeaseTtl(ttlMs: unknown): asserts ttlMs is number {
  if (typeof ttlMs !== 'number' || !Number.isInteger(ttlMs) || ttlMs < 1 || ttlMs > MAX_LEASE_TTL_MS)
    throw new InvalidArgumentError(`A lease duration (ttlMs) must be an integer from 1 to ${MAX_LEASE_TTL_MS} ms, got ${String(ttlMs)}.`);
}

/**
 * Checks a lease passed back to a store: a string owner, a positive integer token, a number
 * expiry. Cheap, as it runs on every leased append: fencing compares the token only.
 */
export function assertSessionLease(lease: unknown): asserts lease is SessionLease {
  const l = lease as Partial<SessionLease> | null | undefined;
  if (
    typeof l !== 'object' ||
    l === null ||
    !Number.isSafeInteger(l.token) ||
    (l.token as number) < 1 ||
    typeof l.expiresAt !== 'number' ||
    typeof l.owner !== 'string'
  )
    throw new InvalidArgumentError('A lease must be the object acquireLease() returned ({ owner, token, expiresAt }); got something else.');
}

/** Whether `record` has a holder whose lease has not expired at `now`. */
export function isLeaseLive(record: LeaseRecord, now: number): boolean {
  return record.holder !== undefined && record.holder.expiresAt > now;
}

/** `record`'s holder while its lease is live at `now` (what `SessionStore.leaseHolder` returns). */
export function liveHolderOf(record: LeaseRecord | undefined, now: number): LeaseHolder | undefined {
  const holder = record?.holder;
  return holder && holder.expiresAt > now ? { owner: holder.owner, expiresAt: holder.expiresAt } : undefined;
}

/**
 * The lease `acquireLease` hands out: token + 1, when there is no holder, the holder's lease has
 * expired at `now`, or the holder is the same owner. A live lease of another owner throws
 * `SessionBusyError` naming it.
 */
export function acquireFrom(sessionId: string, record: LeaseRecord, options: LeaseOptions, now: number): SessionLease {
  const holder = record.holder;
  if (holder && holder.expiresAt > now && holder.owner !== options.owner) throw new SessionBusyError(sessionId, holder);
  return { owner: options.owner, token: record.token + 1, expiresAt: now + options.ttlMs };
}

/**
 * The renewed lease: the same token with a new expiry, when `lease` is still current (even if
 * expired, as long as nobody took over); else `LeaseLostError`.
 */
export function renewFrom(sessionId: string, record: LeaseRecord, lease: SessionLease, ttlMs: number, now: number): SessionLease {
  // Not an append's refusal: the run's earlier appends are stored, so the error must not say otherwise.
  if (!isCurrentLease(record, lease)) throw new LeaseLostError(sessionId, lease.token, record.token, record.holder?.owner);
  return { owner: lease.owner, token: lease.token, expiresAt: now + ttlMs };
}

/**
 * Throws `LeaseLostError` (with `appendRefused`: the append it guards writes nothing) unless
 * `lease` is the session's current, unreleased lease.
 */
export function assertAppendLease(sessionId: string, record: LeaseRecord | undefined, lease: SessionLease): void {
  if (!isCurrentLease(record, lease))
    throw new LeaseLostError(sessionId, lease.token, record?.token, record?.holder?.owner, { appendRefused: true });
}

/** Whether releasing `lease` ends the current holding (it is the current, unreleased token). */
export function isCurrentLease(record: LeaseRecord | undefined, lease: SessionLease): boolean {
  return record?.holder !== undefined && record.token === lease.token;
}
