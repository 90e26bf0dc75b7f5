import type { Session, SessionKey, SessionStore } from '@replan/core';
import type { SessionRow } from '../web/src/wire-types.js';
import { StudioError } from './errors.js';
import { previewOf } from './view/event-views.js';
import { statusOf } from './view/session-status.js';
import { sumTokens } from './view/tokens.js';

const MAX_ROWS_CACHED = 20_000;
const MAX_SESSIONS_CACHED = 8;
/** How long a loaded session answers reads before the store is asked again. */
const FRESH_MS = 1500;

const idOf = (key: SessionKey) => JSON.stringify([key.appName, key.userId, key.id]);

/**
 * Reads sessions for the page. Concurrent reads of one session share one `get`, and a loaded
 * session answers the page's next reads (digest, timeline page, step, state) for a moment: a
 * 10,000-event session is loaded once when opened, not once per panel. Whatever sees a change
 * (`SessionChanges`, the studio's own runs) replaces or drops the copy before the page hears of
 * it. List rows (status, tokens, preview: they need the events) are kept by session and version,
 * so paging through 10,000 sessions reads each session once until it changes.
 */
export class SessionReader {
  private readonly inFlight = new Map<string, Promise<Session | undefined>>();
  private readonly loaded = new Map<string, { session: Session; at: number }>();
  private readonly rows = new Map<string, SessionRow>();

  constructor(private readonly store: SessionStore) {}

  get(key: SessionKey): Promise<Session | undefined> {
    const id = idOf(key);
    const cached = this.loaded.get(id);
    if (cached && Date.now() - cached.at < FRESH_MS) return Promise.resolve(cached.session);
    let pending = this.inFlight.get(id);
    if (!pending) {
      pending = this.store
        .get(key)
        .then((session) => {
          if (this.inFlight.get(id) === pending && session) this.remember(session);
          return session;
        })
        .finally(() => {
          if (this.inFlight.get(id) === pending) this.inFlight.delete(id);
        });
      this.inFlight.set(id, pending);
    }
    return pending;
  }

  /** A session just read elsewhere (e.g. by the change watcher): answer from it. */
  remember(session: Session): void {
    const id = idOf(session);
    this.loaded.delete(id);
    if (this.loaded.size >= MAX_SESSIONS_CACHED) this.loaded.delete(this.loaded.keys().next().value as string);
    this.loaded.set(id, { session, at: Date.now() });
  }

  /** The session changed: the next read asks the store. */
  forget(key: SessionKey): void {
    const id = idOf(key);
    this.loaded.delete(id);
    this.inFlight.delete(id);
  }

  async require(key: SessionKey): Promise<Session> {
    const session = await this.get(key);
    if (!session) throw StudioError.request(404, `No session "${key.id}" for user "${key.userId}" in app "${key.appName}".`);
    return session;
  }

  async page(
    appName: string,
    userId: string,
    limit: number,
    cursor: string | undefined,
  ): Promise<{ sessions: SessionRow[]; nextCursor?: string }> {
    const page = await this.store.list({ appName, userId, limit, ...(cursor ? { cursor } : {}) });
    const sessions = await Promise.all(
      page.sessions.map(async (summary): Promise<SessionRow> => {
        const id = JSON.stringify([summary.appName, summary.userId, summary.id, summary.version]);
        const cached = this.rows.get(id);
        if (cached) return cached;
        const events = (await this.get(summary))?.events ?? [];
        const row: SessionRow = {
          appName: summary.appName,
          userId: summary.userId,
          id: summary.id,
          version: summary.version,
          createdAt: summary.createdAt,
          updatedAt: summary.updatedAt,
          status: statusOf(events).status,
          tokens: sumTokens(events),
          preview: previewOf(events),
        };
        if (this.rows.size >= MAX_ROWS_CACHED) this.rows.delete(this.rows.keys().next().value as string);
        this.rows.set(id, row);
        return row;
      }),
    );
    return page.nextCursor ? { sessions, nextCursor: page.nextCursor } : { sessions };
  }
}
