import { readChildSessionLink } from '@replan/core';
import type { OpenInterruptRow, OpenInterruptsList, Owners } from '../web/src/wire-types.js';
import type { SessionReader } from './session-reader.js';
import { shorten } from './view/event-views.js';
import { openInterrupts } from './view/session-digest.js';

/** Sessions looked at, at most, for one list (the store has no "interrupted sessions" query: each session's status is read from its events). */
export const MAX_SCANNED_SESSIONS = 5000;
const PAGE = 500;

/**
 * What waits for a person across the apps and users in `owners`: each interrupted session's open
 * interrupts, newest first. A child session (an agent run as a tool) is left out: its question
 * is open in its root session too, and answered there.
 */
export async function listOpenInterrupts(
  reader: SessionReader,
  owners: Owners,
  limit: number = MAX_SCANNED_SESSIONS,
): Promise<OpenInterruptsList> {
  const rows: OpenInterruptRow[] = [];
  let scanned = 0;
  let complete = true;
  const appsWithoutUsers = owners.apps.filter((app) => !owners.users[app]?.length);
  scan: for (const appName of owners.apps)
    for (const userId of owners.users[appName] ?? []) {
      let cursor: string | undefined;
      do {
        if (scanned >= limit) {
          complete = false;
          break scan;
        }
        const page = await reader.page(appName, userId, Math.min(PAGE, limit - scanned), cursor);
        scanned += page.sessions.length;
        cursor = page.nextCursor;
        for (const row of page.sessions) {
          if (row.status !== 'interrupted') continue;
          const session = await reader.get(row);
          if (!session || readChildSessionLink(session.events[0]?.meta)) continue;
          for (const interrupt of openInterrupts(session.events))
            rows.push({
              appName,
              userId,
              sessionId: row.id,
              updatedAt: row.updatedAt,
              interrupt,
              summary: shorten(interrupt.toolName ? `${interrupt.toolName} ${interrupt.payload}` : interrupt.payload, 140),
            });
        }
      } while (cursor);
    }
  rows.sort((a, b) => b.updatedAt - a.updatedAt);
  return { interrupts: rows, scanned, complete, appsWithoutUsers };
}
