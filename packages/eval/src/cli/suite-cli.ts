import { resolve } from 'node:path';
import { type ChatModel, FileSessionStore, InMemorySessionStore, type PriceTable, type SessionStore } from '@replan/core';
import { ReplayModel } from '@replan/core/testing';
import { EvalInputError } from '../errors.js';
import { renderJUnit } from '../report/render-junit.js';
import { renderMarkdown } from '../report/render-markdown.js';
import { oneLine } from '../report/report-text.js';
import { builtinSuites } from '../suites/builtin/index.js';
import { renderSuiteMarkdown, renderSuiteTable } from '../suites/render-suite-table.js';
import { runSuite, SUITE_USER_ID, type SuiteReport, type SuiteRunRef, suiteAppName } from '../suites/run-suite.js';
import type { AnySuite } from '../suites/suite.js';
import { SUITE_AGENT_KINDS, type SuiteAgentKind } from '../suites/suite-agent.js';
import { countFlag, type EvalCliArgs } from './eval-cli-args.js';
import { loadSuiteConfig, loadSuiteFile } from './load-suite-config.js';
import { writeReport } from './write-report.js';

/** Where the suite command writes. */
export interface SuiteCliIo {
  readonly out: (text: string) => void;
  /** The environment the model comes from (`OPENAI_BASE_URL`, `OPENAI_API_KEY`, `REPLAN_MODEL`; default `process.env`). */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

async function suitesOf(spec: string): Promise<AnySuite[]> {
  if (spec === 'all') return Object.values(builtinSuites);
  if (Object.hasOwn(builtinSuites, spec)) return [builtinSuites[spec as keyof typeof builtinSuites]];
  if (/\.[mc]?[jt]sx?$/.test(spec)) return loadSuiteFile(spec);
  throw new EvalInputError('usage', `--suite ${spec}: give travel, retail, research, all, or a suite file (.ts, .js, .mjs).`);
}

function agentsOf(spec: string | undefined): SuiteAgentKind[] {
  if (spec === undefined) return [...SUITE_AGENT_KINDS];
  const kinds = spec.split(',').map((k) => k.trim());
  const unknown = kinds.filter((k) => !(SUITE_AGENT_KINDS as readonly string[]).includes(k));
  if (unknown.length || !kinds.length)
    throw new EvalInputError('usage', `--agent ${spec}: give one or more of ${SUITE_AGENT_KINDS.join(', ')}, separated by commas.`);
  return [...new Set(kinds)] as SuiteAgentKind[];
}

async function modelFromEnv(env: Readonly<Record<string, string | undefined>>): Promise<ChatModel | undefined> {
  let providers: typeof import('@replan/providers');
  try {
    providers = await import('@replan/providers');
  } catch {
    throw new EvalInputError(
      'usage',
      'A model from OPENAI_BASE_URL / REPLAN_MODEL needs @replan/providers: pnpm add -D @replan/providers (or use --config).',
    );
  }
  return providers.discoverModelFromEnv({ ...env });
}

/** The model of every run: a recording's (`--replay`), the config file's, or the environment's. */
async function modelOf(
  args: EvalCliArgs,
  io: SuiteCliIo,
): Promise<{ model?: ChatModel | ((run: SuiteRunRef) => Promise<ChatModel>); prices?: PriceTable }> {
  if (args.flags.has('oracle')) return {};
  const replay = args.flags.get('replay');
  if (replay) {
    const recordings = new FileSessionStore({ dir: resolve(replay) });
    return {
      model: async (run) => {
        const session = await recordings.get({ appName: suiteAppName(run.suite), userId: SUITE_USER_ID, id: run.sessionId });
        if (!session)
          throw new EvalInputError('usage', `No recording of ${run.sessionId} in ${replay}: record it with --record ${replay} first.`);
        return ReplayModel.fromSession(session);
      },
    };
  }
  const config = args.flags.get('config');
  if (config) return loadSuiteConfig(config);
  const model = await modelFromEnv(io.env ?? process.env);
  if (!model)
    throw new EvalInputError(
      'usage',
      'No model: set OPENAI_BASE_URL and/or OPENAI_API_KEY (and REPLAN_MODEL), give --config <file> exporting { model }, or run --oracle to check the suites themselves.',
    );
  return { model };
}

/** The failing tasks, one line each: suite, agent, task and why. */
function failureLines(reports: readonly SuiteReport[]): string[] {
  const lines: string[] = [];
  for (const r of reports)
    for (const c of r.report.cases)
      if (!c.pass) {
        const why = c.criteria.filter((k) => !k.pass).map((k) => `${k.criterion}: ${k.reason}`);
        const errors = c.runs.flatMap((run) => (run.error ? [`${run.error.name}: ${run.error.message}`] : []));
        lines.push(`✗ ${r.suite} · ${r.agent} · ${oneLine(c.name, 64)}: ${oneLine([...why, ...errors].join('; ') || 'a run failed', 240)}`);
      }
  return lines;
}

/** `replan eval --suite …`: runs the suites with each agent kind, prints the table, writes the reports. */
export async function runSuiteCli(args: EvalCliArgs, io: SuiteCliIo): Promise<boolean> {
  if (args.positional.length) throw new EvalInputError('usage', 'replan eval --suite takes no eval file.');
  if (args.flags.has('record') && args.flags.has('replay')) throw new EvalInputError('usage', 'Give --record or --replay, not both.');
  if (args.flags.has('oracle') && (args.flags.has('replay') || args.flags.has('config')))
    throw new EvalInputError('usage', '--oracle runs the scripted oracles: it takes neither --replay nor --config.');
  const suites = await suitesOf(args.flags.get('suite') as string);
  const agents = agentsOf(args.flags.get('agent'));
  const repeat = countFlag(args, 'repeat');
  const concurrency = countFlag(args, 'concurrency');
  const { model, prices } = await modelOf(args, io);
  const record = args.flags.get('record');
  const store: SessionStore = record ? new FileSessionStore({ dir: resolve(record) }) : new InMemorySessionStore();
  const reports: SuiteReport[] = [];
  try {
    for (const suite of suites)
      for (const agent of agents)
        reports.push(
          await runSuite({
            suite,
            agent,
            ...(model ? { model } : { oracle: true }),
            ...(prices ? { prices } : {}),
            ...(repeat ? { repeat } : {}),
            ...(concurrency ? { concurrency } : {}),
            sessionStore: store,
          }),
        );
  } finally {
    await store.close?.();
  }
  const failures = failureLines(reports);
  const what = args.flags.has('oracle') ? 'scripted oracles (they prove the suites, not a model)' : 'your model';
  io.out([renderSuiteTable(reports), `runs: ${what}`, ...(failures.length ? ['', ...failures] : [])].join('\n'));
  const json = args.flags.get('json');
  if (json) await writeReport(json, `${JSON.stringify(reports, null, 2)}\n`, 'JSON');
  const markdown = args.flags.get('markdown');
  if (markdown)
    await writeReport(markdown, [renderSuiteMarkdown(reports), ...reports.map((r) => renderMarkdown(r.report))].join('\n'), 'Markdown');
  const junit = args.flags.get('junit');
  if (junit) await writeReport(junit, renderJUnit(reports.map((r) => r.report)), 'JUnit');
  return reports.every((r) => r.report.pass);
}
