import { StudioError } from '../errors.js';

export const USAGE = `replan — look at and act on replan sessions

  replan studio   --store <dir | postgres://…> [--runners <module>] [--port <n>] [--host <ip>] [--app <name>]… [--user <id>]…
                  serve the studio page (the printed URL carries its access token)
  replan sessions --store <dir | postgres://…> [--app <name>] [--user <id>] [--limit <n>] [--cursor <c>]
                  list sessions with their status: one user's, or every app's and user's a file store holds
  replan show <sessionId> --store <dir | postgres://…> [--app <name>] [--user <id>] [--plain]
                  print a session as the live-run tree (renderRun), or --plain: plan then every event
                  (app and user are found in a file store when omitted)
  replan eval <file> [--junit <path>] [--markdown <path>] [--concurrency <n>] [--repeat <n>]
  replan eval --from-session <id> --store <dir | postgres://…> --out <dir>
  replan eval --suite <travel|retail|research|all|file> [--agent <kinds>] [--repeat <k>] [--oracle]
                  run an eval set for CI, turn a stored session into an eval case, or run task
                  suites on the model from OPENAI_BASE_URL / REPLAN_MODEL
                  (needs @replan/eval; replan eval --help tells more)
  replan help     this text (also replan --help, replan -h, replan <command> --help)

  --runners <module> (studio) is a JavaScript or TypeScript module exporting createRunners(store)
  (or a default function) that returns the app's Runners built on that store; TypeScript loads
  through tsx when it is installed. --app is always an app name; --app-name is its older spelling
  (studio).`;

export interface CliArgs {
  readonly command: string;
  readonly positional: readonly string[];
  readonly flags: ReadonlyMap<string, readonly string[]>;
}

const KNOWN = new Set(['store', 'runners', 'app', 'app-name', 'user', 'port', 'host', 'limit', 'cursor', 'help', 'plain']);
/** Flags without a value. */
const SWITCHES = new Set(['help', 'plain']);

/** What asks for the usage, as a command or as an option. */
export const HELP_WORDS: ReadonlySet<string> = new Set(['help', '--help', '-h']);

/** `replan <command> [positional…] --flag value …` (a flag may repeat). */
export function parseArgs(argv: readonly string[]): CliArgs {
  const [first = 'help', ...rest] = argv;
  // `replan --help` and `replan -h` ask for the usage as `replan help` does.
  const command = HELP_WORDS.has(first) ? 'help' : first;
  const positional: string[] = [];
  const flags = new Map<string, string[]>();
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i] as string;
    if (arg === '-h') {
      flags.set('help', ['']);
      continue;
    }
    if (!arg.startsWith('--')) {
      positional.push(arg);
      continue;
    }
    const [name, inline] = arg.slice(2).split(/=(.*)/s, 2) as [string, string | undefined];
    if (!KNOWN.has(name)) throw new StudioError('usage', `Unknown option --${name}.\n\n${USAGE}`);
    if (SWITCHES.has(name)) {
      flags.set(name, ['']);
      continue;
    }
    const value = inline ?? rest[++i];
    if (value === undefined || value.startsWith('--')) throw new StudioError('usage', `--${name} needs a value.\n\n${USAGE}`);
    flags.set(name, [...(flags.get(name) ?? []), value]);
  }
  return { command, positional, flags };
}

export function flag(args: CliArgs, name: string): string | undefined {
  return args.flags.get(name)?.at(-1);
}

export function requiredFlag(args: CliArgs, name: string, what: string): string {
  const value = flag(args, name);
  if (value === undefined) throw new StudioError('usage', `replan ${args.command} needs --${name} <${what}>.\n\n${USAGE}`);
  return value;
}

export function numberFlag(args: CliArgs, name: string, fallback: number): number {
  const value = flag(args, name);
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new StudioError('usage', `--${name} must be a whole number, not "${value}".`);
  return n;
}
