import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { FileSessionStore, ReplanError, type Session, type SessionStore } from '@replan/core';
import { guardrailBlockText } from '@replan/core/agent-kit';
import { EvalInputError } from '../errors.js';
import { writeEvalCaseFiles } from '../production/case-files.js';
import { withInputBytes } from '../production/case-input-bytes.js';
import { sessionToEvalCase } from '../production/session-to-eval-case.js';
import { renderJUnit } from '../report/render-junit.js';
import { renderMarkdown } from '../report/render-markdown.js';
import { renderTerminal } from '../report/render-terminal.js';
import { runEval } from '../run/run-eval.js';
import { countFlag, EVAL_USAGE, type EvalCliArgs, parseEvalArgs } from './eval-cli-args.js';
import { loadEvalModule } from './load-eval-module.js';
import { writeReport } from './write-report.js';
import { runSuiteCli, type SuiteCliIo } from './suite-cli.js';

/** Where `runEvalCli` writes, and what the `replan` CLI lends it. */
export interface EvalCliIo {
  /** The report and results. */
  readonly out: (text: string) => void;
  /** Usage and configuration errors (default: `out`). */
  readonly err?: (text: string) => void;
  /** Opens `--store` (the `replan` CLI passes its own: a directory or a postgres:// URL). Default: a `FileSessionStore` directory. */
  readonly openStore?: (spec: string) => Promise<SessionStore>;
  /** Finds a session by id when `--app`/`--user` are not both given (the `replan` CLI searches a file store's directory). */
  readonly findSession?: (store: SessionStore, id: string, owner: { appName?: string; userId?: string }) => Promise<Session | undefined>;
  /** Where `--suite` reads its model from (`OPENAI_BASE_URL`, `OPENAI_API_KEY`, `REPLAN_MODEL`; default `process.env`). */
  readonly env?: SuiteCliIo['env'];
  /** ANSI colours in the report (default: when stdout is a TTY); `--no-color` turns them off. */
  readonly color?: boolean;
}

/** Exit codes: every case passed, a case failed, the command line or the eval file cannot be used. */
export const EXIT = { passed: 0, failed: 1, usage: 2 } as const;

async function defaultOpenStore(spec: string): Promise<SessionStore> {
  if (/^postgres(ql)?:\/\//i.test(spec))
    throw new EvalInputError(
      'usage',
      'A postgres:// store needs the replan CLI (@replan/studio with @replan/postgres): run it as replan eval ….',
    );
  return new FileSessionStore({ dir: resolve(spec) });
}

async function evalFile(args: EvalCliArgs, io: EvalCliIo): Promise<number> {
  const [file, ...extra] = args.positional;
  if (!file) throw new EvalInputError('usage', `replan eval needs an eval file (or --from-session).\n\n${EVAL_USAGE}`);
  if (extra.length)
    throw new EvalInputError('usage', `replan eval takes one eval file, not ${args.positional.length}: ${args.positional.join(' ')}`);
  const concurrency = countFlag(args, 'concurrency');
  const repeat = countFlag(args, 'repeat');
  const module = await loadEvalModule(file);
  const report = await runEval({
    set: module.set,
    ...(module.runner ? { runner: module.runner } : {}),
    ...(module.makeRunner ? { makeRunner: module.makeRunner } : {}),
    ...(concurrency ? { concurrency } : {}),
    ...(repeat ? { repeat } : {}),
  });
  const color = args.flags.has('no-color') ? false : io.color;
  io.out(renderTerminal(report, color === undefined ? {} : { color }));
  const junit = args.flags.get('junit');
  if (junit) await writeReport(junit, renderJUnit(report), 'JUnit');
  const markdown = args.flags.get('markdown');
  if (markdown) await writeReport(markdown, renderMarkdown(report), 'Markdown');
  return report.pass ? EXIT.passed : EXIT.failed;
}

async function fromSession(args: EvalCliArgs, io: EvalCliIo): Promise<number> {
  const id = args.flags.get('from-session') as string;
  const spec = args.flags.get('store');
  const out = args.flags.get('out');
  if (!spec || !out)
    throw new EvalInputError('usage', `replan eval --from-session needs --store <dir | postgres://…> and --out <dir>.\n\n${EVAL_USAGE}`);
  if (args.positional.length) throw new EvalInputError('usage', 'replan eval --from-session takes no eval file.');
  if (!/^postgres(ql)?:\/\//i.test(spec) && !(existsSync(spec) && statSync(spec).isDirectory()))
    throw new EvalInputError('usage', `--store ${spec} is not a directory: give a FileSessionStore directory or a postgres:// URL.`);
  const appName = args.flags.get('app');
  const userId = args.flags.get('user');
  const store = await (io.openStore ?? defaultOpenStore)(spec);
  try {
    let session: Session | undefined;
    if (appName && userId) session = await store.get({ appName, userId, id });
    else if (io.findSession) session = await io.findSession(store, id, { ...(appName ? { appName } : {}), ...(userId ? { userId } : {}) });
    else throw new EvalInputError('usage', 'Give --app <name> and --user <id>: this store cannot look a session up by id alone.');
    // A connection string may hold a password: it is not printed.
    const where = /^postgres(ql)?:\/\//i.test(spec) ? 'the PostgreSQL store' : spec;
    if (!session)
      throw new EvalInputError(
        'usage',
        `No session "${id}" in ${where}${appName ? ` (app "${appName}")` : ''}${userId ? ` (user "${userId}")` : ''}.`,
      );
    const name = args.flags.get('name');
    const key = { appName: session.appName, userId: session.userId, id: session.id };
    const converted = await withInputBytes(sessionToEvalCase(session, name ? { name } : {}), store, key);
    const { casePath, recordingPath } = await writeEvalCaseFiles(out, converted, session.id);
    const calls = converted.evalCase.expect.trajectory?.calls.length ?? 0;
    const blocked = converted.guardrail ? `; ${guardrailBlockText(converted.guardrail)}, so the case expects no answer` : '';
    io.out(
      `wrote ${casePath} (${calls} tool call(s), answer, status${blocked}) and ${recordingPath} (${converted.recording.length} events)`,
    );
    return EXIT.passed;
  } finally {
    await store.close?.();
  }
}

/**
 * `replan eval …` (the arguments after `eval`): runs an eval file and prints its report (writing
 * JUnit and Markdown when asked), runs task suites (`--suite`), or turns a stored session into a case and its recording
 * (`--from-session`). Resolves with the exit code: 0 all passed, 1 a case failed, 2 a usage or
 * configuration error (its message, which says what to do, goes to `io.err`).
 */
export async function runEvalCli(argv: readonly string[], io: EvalCliIo): Promise<number> {
  const err = io.err ?? io.out;
  try {
    const args = parseEvalArgs(argv);
    if (args.flags.has('help')) {
      io.out(EVAL_USAGE);
      return EXIT.passed;
    }
    if (args.flags.has('suite'))
      return (await runSuiteCli(args, { out: io.out, ...(io.env ? { env: io.env } : {}) })) ? EXIT.passed : EXIT.failed;
    return args.flags.has('from-session') ? await fromSession(args, io) : await evalFile(args, io);
  } catch (error) {
    // EvalInputError (usage, set, file), and the store's own (a damaged session, a bad id):
    // each message says what to fix.
    if (error instanceof ReplanError) {
      err(`${error.name}: ${error.message}`);
      return EXIT.usage;
    }
    throw error;
  }
}
