import { readChildSessionLink } from '@replan/core';
import type { InterruptView, OpenInterruptRow, OpenInterruptsList, Owners } from '../web/src/wire-types.js';
import type { SessionReader } from './session-reader.js';
import { asText, shorten } from './view/event-views.js';
import { openInterrupts } from './view/session-digest.js';

/** Sessions looked at, at most, for one list (the store has no "interrupted sessions" query: each session's status is read from its events). */
export const MAX_SCANNED_SESSIONS = 5000;
const PAGE = 500;

/** The question on one line: an approval as the call it approves (`send_report({"to":…})`), else the payload. */
function summaryOf(interrupt: InterruptView): string {
  let payload: unknown = interrupt.payload;
  try {
    payload = JSON.parse(interrupt.payload);
  } catch {
    // text, not JSON: shown as it is
  }
  const args = typeof payload === 'object' && payload !== null && 'args' in payload ? (payload as { args: unknown }).args : undefined;
  const text = interrupt.toolName && args !== undefined ? `${interrupt.toolName}(${JSON.stringify(args)})` : asText(payload);
  return shorten(text, 160);
}

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
              summary: summaryOf(interrupt),
            });
        }
      } while (cursor);
    }
  rows.sort((a, b) => b.updatedAt - a.updatedAt);
  return { interrupts: rows, scanned, complete, appsWithoutUsers };
}
