import { readdir } from 'node:fs/promises';
import { SessionCorruptError } from '../../errors/session-errors.js';
import type { SessionSummary } from '../session.js';
import { pageSummaries } from '../session-paging.js';
import type { DamagedSession, ListSessionsInput, SessionPage } from '../session-store.js';
import { errorCode } from './durable-fs.js';
import { SESSION_FILE_SUFFIX, type FileLayout } from './file-names.js';
import { readSummary, readVersion } from './session-file-reads.js';

/**
 * One page of a user's sessions in a file store: a summary from each log's header (sorted by the
 * paging order), versions read for the page only, damaged files reported instead of failing the list.
 */
export async function listSessionFiles(
  layout: FileLayout,
  input: ListSessionsInput,
  relative: (path: string) => string,
): Promise<SessionPage> {
  const dir = layout.userSessionsDir(input.appName, input.userId);
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return { sessions: [] };
    throw error;
  }
  const all: SessionSummary[] = [];
  const damaged: DamagedSession[] = [];
  const report = (path: string, error: unknown, id?: string) => {
    if (!(error instanceof SessionCorruptError)) throw error;
    damaged.push({ ...(id !== undefined ? { id } : {}), file: relative(path), error: error.message });
  };
  for (const name of names.sort()) {
    if (!name.endsWith(SESSION_FILE_SUFFIX)) continue; // locks and temporary files
    const path = `${dir}/${name}`;
    try {
      const summary = await readSummary(path, input, relative(path));
      if (summary) all.push(summary);
    } catch (error) {
      report(path, error);
    }
  }
  const page = pageSummaries(all, input.limit, input.cursor);
  // Versions only for the page: each costs a read of the file's last batch.
  const sessions: SessionSummary[] = [];
  for (const s of page.sessions) {
    const path = layout.sessionFile(s);
    try {
      const version = await readVersion(path, s, relative(path));
      if (version !== undefined) sessions.push({ ...s, version });
    } catch (error) {
      report(path, error, s.id);
    }
  }
  return {
    sessions,
    ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
    ...(damaged.length ? { damaged } : {}),
  };
}
