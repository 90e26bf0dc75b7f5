import { InvalidArgumentError } from '../errors/replan-error.js';
import type { SessionSummary } from './session.js';
import type { SessionPage } from './session-store.js';

/** Orders summaries by creation time then id, the order every store pages in. */
export function compareSummaries(a: SessionSummary, b: SessionSummary): number {
  return a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

export function encodeCursor(last: SessionSummary): string {
  return Buffer.from(JSON.stringify([last.createdAt, last.id])).toString('base64url');
}

export function decodeCursor(cursor: string): { createdAt: number; id: string } {
  try {
    const [createdAt, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as [number, string];
    if (typeof createdAt !== 'number' || typeof id !== 'string') throw new Error('bad cursor');
    return { createdAt, id };
  } catch {
    throw new InvalidArgumentError(`Invalid list cursor "${cursor}": pass the nextCursor of the previous page.`);
  }
}

/** Pages an in-memory list of summaries. */
export function pageSummaries(all: SessionSummary[], limit = 100, cursor?: string): SessionPage {
  all.sort(compareSummaries);
  let start = 0;
  if (cursor) {
    const after = decodeCursor(cursor);
    start = all.findIndex((s) => s.createdAt > after.createdAt || (s.createdAt === after.createdAt && s.id > after.id));
    if (start < 0) start = all.length;
  }
  const sessions = all.slice(start, start + limit);
  const last = sessions[sessions.length - 1];
  return start + limit < all.length && last ? { sessions, nextCursor: encodeCursor(last) } : { sessions };
}
