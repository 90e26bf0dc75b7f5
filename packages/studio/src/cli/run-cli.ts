import type { SessionStore } from '@replan/core';
import { StudioError } from '../errors.js';
import { serveStudio } from '../serve-studio.js';
import type { SessionRow } from '../../web/src/wire-types.js';
import { SessionReader } from '../session-reader.js';
import { flag, numberFlag, parseArgs, requiredFlag, USAGE, type CliArgs } from './cli-args.js';
import { evalCommand } from './eval-command.js';
import { findSession, ownerCandidates } from './find-session.js';
import { loadRunners } from './load-app.js';
import { openStore } from './open-store.js';
import { studioFlags } from './studio-flags.js';
import { formatSession, formatSessionRows, renderSession } from './print-session.js';

export interface CliIo {
  readonly out: (text: string) => void;
  /** Error messages of commands that report them themselves (`eval`); default: `out`. */
  readonly err?: (text: string) => void;
  /** Resolves when the user stops the studio (Ctrl-C); tests resolve it themselves. */
  readonly stopped: Promise<void>;
}

/** Runs one `replan` command; resolves with the exit code. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  // `eval` has flags of its own: @replan/eval parses them.
  if (argv[0] === 'eval') return evalCommand(argv.slice(1), io);
  const args = parseArgs(argv);
  if (args.command === 'help' || args.flags.has('help')) {
    io.out(USAGE);
    return 0;
  }
  if (!['studio', 'sessions', 'show'].includes(args.command))
    throw new StudioError('usage', `Unknown command "${args.command}".\n\n${USAGE}`);
  // Only the studio serving runners writes sessions: it may start on an empty directory.
  const mayBeNew = args.command === 'studio' && args.flags.has('runners');
  const store = await openStore(requiredFlag(args, 'store', 'dir | postgres://url'), { mayBeNew });
  try {
    if (args.command === 'studio') return await studio(args, store, io);
    if (args.command === 'sessions') return await sessions(args, store, io);
    return await show(args, store, io);
  } finally {
    await store.close?.();
  }
}

async function studio(args: CliArgs, store: SessionStore, io: CliIo): Promise<number> {
  const chosen = studioFlags(args, io.err ?? io.out);
  const runners = chosen.runners ? await loadRunners(chosen.runners, store) : undefined;
  const handle = await serveStudio({
    store,
    ...(runners ? { runners } : {}),
    ...(flag(args, 'host') ? { host: flag(args, 'host') as string } : {}),
    port: numberFlag(args, 'port', 0),
    apps: chosen.apps,
    users: args.flags.get('user') ?? [],
  });
  io.out(`replan studio${runners ? '' : ' (read-only)'} — open:\n\n  ${handle.url}\n\n(Ctrl-C stops it)`);
  await io.stopped;
  await handle.close();
  return 0;
}

async function sessions(args: CliArgs, store: SessionStore, io: CliIo): Promise<number> {
  const app = flag(args, 'app');
  const user = flag(args, 'user');
  const limit = numberFlag(args, 'limit', 50) || 50;
  const reader = new SessionReader(store);
  if (app && user) {
    const page = await reader.page(app, user, limit, flag(args, 'cursor'));
    io.out(page.sessions.length ? formatSessionRows(page.sessions) : `No sessions for user "${user}" in app "${app}".`);
    if (page.nextCursor) io.out(`\nmore: --cursor ${page.nextCursor}`);
    return 0;
  }
  // A cursor continues one user's list: across owners it would not say whose.
  if (flag(args, 'cursor') !== undefined)
    throw new StudioError('usage', '--cursor continues one list: give --app <name> and --user <id> with it.');
  const owners = await ownerCandidates(store, app, user);
  if (!owners.length)
    throw new StudioError(
      'usage',
      app || user
        ? `No sessions${app ? ` in app "${app}"` : ''}${user ? ` for user "${user}"` : ''}.`
        : 'Give --app <name> and --user <id>: this store cannot list its apps and users.',
    );
  const rows: SessionRow[] = [];
  const more: string[] = [];
  for (const owner of owners) {
    const page = await reader.page(owner.appName, owner.userId, limit, undefined);
    rows.push(...page.sessions);
    if (page.nextCursor) more.push(`  --app ${owner.appName} --user ${owner.userId} --cursor ${page.nextCursor}`);
  }
  io.out(rows.length ? formatSessionRows(rows, { owners: true }) : 'No sessions in this store.');
  if (more.length) io.out(`\nmore (${limit} per user shown):\n${more.join('\n')}`);
  return 0;
}

async function show(args: CliArgs, store: SessionStore, io: CliIo): Promise<number> {
  const id = args.positional[0];
  if (!id) throw new StudioError('usage', `replan show needs a session id.\n\n${USAGE}`);
  const app = flag(args, 'app');
  const user = flag(args, 'user');
  const candidates = await ownerCandidates(store, app, user);
  const session = await findSession(store, id, candidates);
  if (session) {
    if (args.flags.has('plain')) io.out(formatSession(session));
    else {
      let text = '';
      await renderSession(session, (chunk) => {
        text += chunk;
      });
      io.out(text.replace(/\n$/, ''));
    }
    return 0;
  }
  throw new StudioError(
    'usage',
    candidates.length
      ? `No session "${id}" found${app ? ` in app "${app}"` : ''}${user ? ` for user "${user}"` : ''}.`
      : `Give --app <name> and --user <id>: this store cannot list its apps and users.`,
  );
}
