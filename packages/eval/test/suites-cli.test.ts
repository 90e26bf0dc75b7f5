import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runEvalCli } from '@replan/eval/cli';
import { EXIT } from '../src/cli/run-eval-cli.js';

const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'replan-suite-cli-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function cli(argv: string[], env: Record<string, string | undefined> = {}): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runEvalCli(argv, { out: (t) => out.push(t), err: (t) => err.push(t), color: false, env });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/** An OpenAI-compatible server on 127.0.0.1 whose model answers every request "Done." (and counts them). */
async function doneServer(): Promise<{ url: string; requests: () => number; close: () => Promise<void> }> {
  let requests = 0;
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      requests++;
      const { model } = JSON.parse(body || '{}') as { model?: string };
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify({
          id: `chatcmpl-${requests}`,
          object: 'chat.completion',
          created: 0,
          model,
          choices: [{ index: 0, message: { role: 'assistant', content: 'Done.' }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 100, completion_tokens: 2, total_tokens: 102 },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/v1`, requests: () => requests, close: () => new Promise((r) => server.close(() => r())) };
}

describe('replan eval --suite', () => {
  it('runs every built-in suite with each agent kind on the oracles, prints the table and writes JSON, Markdown and JUnit', async () => {
    const paths = { json: join(dir, 'r/suites.json'), markdown: join(dir, 'r/suites.md'), junit: join(dir, 'r/suites.xml') };
    const { code, out } = await cli([
      '--suite',
      'all',
      '--oracle',
      '--json',
      paths.json,
      '--markdown',
      paths.markdown,
      '--junit',
      paths.junit,
    ]);
    expect(code).toBe(EXIT.passed);
    const rows = out.split('\n').filter((l) => /^(travel|retail|research)\s/.test(l));
    expect(rows).toHaveLength(9);
    expect(rows.every((r) => r.includes('100%'))).toBe(true);
    expect(out).toContain('runs: scripted oracles (they prove the suites, not a model)');
    const json = JSON.parse(await readFile(paths.json, 'utf8')) as { suite: string; agent: string; success: number }[];
    expect(json.map((r) => `${r.suite}/${r.agent}`)).toContain('retail/graph');
    expect(await readFile(paths.markdown, 'utf8')).toMatch(/^\| suite \| agent \| success \| pass\^k \|/);
    expect(await readFile(paths.junit, 'utf8')).toContain('<testsuite name="travel · plan-execute"');
  });

  it('records with --record and replays with --replay, with no model configured', async () => {
    const recordings = join(dir, 'recordings');
    expect((await cli(['--suite', 'research', '--agent', 'react,graph', '--oracle', '--record', recordings])).code).toBe(EXIT.passed);
    const replay = await cli(['--suite', 'research', '--agent', 'react,graph', '--replay', recordings]);
    expect(replay.code).toBe(EXIT.passed);
    expect(replay.out).toContain('runs: your model');
    // A recording that is not there fails each task, naming how to make it.
    const missing = await cli(['--suite', 'retail', '--agent', 'react', '--replay', recordings]);
    expect(missing.code).toBe(EXIT.failed);
    expect(missing.out).toContain('No recording of retail.return-one.react.1');
  });

  it('takes the model from OPENAI_BASE_URL and REPLAN_MODEL, and exits 1 when it fails tasks', async () => {
    const server = await doneServer();
    try {
      const { code, out } = await cli(['--suite', 'travel', '--agent', 'react'], {
        OPENAI_BASE_URL: server.url,
        OPENAI_API_KEY: 'k',
        REPLAN_MODEL: 'lazy-1',
      });
      expect(code).toBe(EXIT.failed);
      expect(server.requests()).toBe(15);
      expect(out).toMatch(/^travel\s+react\s+0% \(0\/15 tasks\)/m);
      expect(out).toContain(
        '✗ travel · react · book-cheapest: state: db.bookings.B1001 is undefined, expected an object; facts: the answer lacks "B1001", "TP103"',
      );
    } finally {
      await server.close();
    }
  });

  it('takes the model and prices from --config, and a suite of your own from a file, reporting its bad task', async () => {
    const own = await cli(['--suite', fixture('own.suite.ts'), '--oracle']);
    expect(own.code).toBe(EXIT.failed);
    expect(own.out).toMatch(/^notes\s+react\s+50% \(1\/2 tasks\)/m);
    expect(own.out).toContain('✗ notes · react · no-request: EvalInputError: the task fails its schema: request: a task needs a request');
    const config = await cli(['--suite', 'research', '--agent', 'react', '--config', fixture('done-model.config.ts')]);
    expect(config.code).toBe(EXIT.failed);

    expect(config.out).toMatch(/^research\s+react\s+0% \(0\/15 tasks\)\s+—\s+15\s+225\s+\$300\s/m);
  });

  it('answers a wrong command line with exit code 2 and what to do', async () => {
    const cases: [string[], RegExp][] = [
      [['--suite', 'nope', '--oracle'], /--suite nope: give travel, retail, research, all, or a suite file/],
      [['--suite', 'all', '--agent', 'react,chat', '--oracle'], /--agent react,chat: give one or more of react, plan-execute, graph/],
      [['--suite', 'all', '--record', 'a', '--replay', 'b'], /Give --record or --replay, not both/],
      [['--suite', 'all', '--oracle', '--config', 'x.ts'], /--oracle runs the scripted oracles/],
      [['--suite', 'all'], /No model: set OPENAI_BASE_URL/],
      [['--suite', 'all', '--config', fixture('own.suite.ts')], /gives no model: default-export \{ model \}/],
      [
        ['--suite', 'all', '--config', fixture('bad-prices.config.ts')],
        /prices must map each model id to \{ inputPerMillion, outputPerMillion \}.*check m\./,
      ],
      [['--suite', 'all', '--oracle', '--repeat', '0'], /--repeat must be a whole number/],
    ];
    for (const [argv, message] of cases) {
      const { code, err } = await cli(argv);
      expect(code, argv.join(' ')).toBe(EXIT.usage);
      expect(err, argv.join(' ')).toMatch(message);
    }
  });
});
