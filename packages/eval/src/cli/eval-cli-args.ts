import { EvalInputError } from '../errors.js';

export const EVAL_USAGE = `replan eval — run an eval set, or turn a stored session into an eval case

  replan eval <file> [--junit <path>] [--markdown <path>] [--concurrency <n>] [--repeat <n>] [--no-color]
      runs the eval set of <file> (.ts through tsx, or .js/.mjs) and prints the report;
      exit code 0 when every case passes, 1 when one fails, 2 on a usage or configuration error.
      <file> default-exports { set, runner } or { set, makeRunner } (or a function returning one),
      or exports evalSet with runner or makeRunner.

  replan eval --suite <travel|retail|research|all|file> [--agent react,plan-execute,graph] [--oracle]
              [--repeat <k>] [--concurrency <n>] [--config <file>] [--record <dir> | --replay <dir>]
              [--json <path>] [--markdown <path>] [--junit <path>] [--no-color]
      runs task suites (deterministic tools over a small database, scored by the final database and
      the answer) with each agent kind and prints a table: success, pass^k, model calls, tokens,
      cost, latency. The model comes from OPENAI_BASE_URL / OPENAI_API_KEY / REPLAN_MODEL, or from
      --config <file> (default-exports { model, prices? }: e.g. an AI SDK model through aiSdkModel).
      --oracle runs each task's scripted solution instead (proves the suites, says nothing of a model).
      --record <dir> keeps every run's session in <dir>; --replay <dir> replays them with no model.
      Exit code 0 when every task passes, 1 when one fails, 2 on a usage or configuration error.

  replan eval --from-session <id> --store <dir | postgres://…> --out <dir> [--app <name>] [--user <id>] [--name <case>]
      writes <out>/<case>.case.json and <out>/<case>.recording.json from the stored session, for a
      test that replays it offline (ReplayModel.fromSession); see docs/testing-and-evals.md.`;

export interface EvalCliArgs {
  readonly positional: readonly string[];
  readonly flags: ReadonlyMap<string, string>;
}

const VALUED = new Set([
  'junit',
  'markdown',
  'concurrency',
  'repeat',
  'from-session',
  'store',
  'out',
  'app',
  'user',
  'name',
  'suite',
  'agent',
  'config',
  'record',
  'replay',
  'json',
]);
const SWITCHES = new Set(['help', 'no-color', 'oracle']);

/** The arguments after `replan eval`: `<file> --flag value …` (a repeated flag keeps its last value). */
export function parseEvalArgs(argv: readonly string[]): EvalCliArgs {
  const positional: string[] = [];
  const flags = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '-h') {
      flags.set('help', '');
      continue;
    }
    if (!arg.startsWith('--')) {
      positional.push(arg);
      continue;
    }
    const [name, inline] = arg.slice(2).split(/=(.*)/s, 2) as [string, string | undefined];
    if (SWITCHES.has(name)) {
      flags.set(name, '');
      continue;
    }
    if (!VALUED.has(name)) throw new EvalInputError('usage', `Unknown option --${name}.\n\n${EVAL_USAGE}`);
    const value = inline ?? argv[++i];
    if (value === undefined || value.startsWith('--')) throw new EvalInputError('usage', `--${name} needs a value.\n\n${EVAL_USAGE}`);
    flags.set(name, value);
  }
  return { positional, flags };
}

/** A whole number ≥ 1 given with `--name`, or `undefined` when the flag is absent. */
export function countFlag(args: EvalCliArgs, name: string): number | undefined {
  const value = args.flags.get(name);
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new EvalInputError('usage', `--${name} must be a whole number ≥ 1, not "${value}".`);
  return n;
}
