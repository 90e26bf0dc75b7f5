import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FileSessionStore, imageFromBytes } from '@replan/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runEvalCli } from '@replan/eval/cli';
import { EXIT } from '../src/cli/run-eval-cli.js';
import { researchRunner } from './support/agents.js';

const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'replan-eval-cli-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runEvalCli(argv, { out: (t) => out.push(t), err: (t) => err.push(t), color: false });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('replan eval <file>', () => {
  it('exits 0 when every case passes, and prints the report', async () => {
    const { code, out } = await cli(fixture('passing.eval.ts'));
    expect(code).toBe(EXIT.passed);
    expect(out).toMatch(/^✓ lyon /m);
    expect(out).toContain('PASS 2/2 cases passed');
  });

  it('exits 1 when a case fails, and writes JUnit and Markdown reports where asked', async () => {
    const junit = join(dir, 'reports/eval.xml');
    const markdown = join(dir, 'reports/eval.md');
    const { code, out } = await cli(fixture('mixed.eval.ts'), '--junit', junit, `--markdown=${markdown}`, '--concurrency', '2');
    expect(code).toBe(EXIT.failed);
    expect(out).toContain('FAIL 1/3 cases passed');
    const xml = await readFile(junit, 'utf8');
    expect(xml).toContain('<testsuite name="mixed &lt;&amp;&gt;" tests="3" failures="1" errors="1"');
    expect(xml).toContain('<testcase classname="mixed &lt;&amp;&gt;" name="fails &lt;b&gt;&amp;amp;&lt;/b&gt;"');
    expect(await readFile(markdown, 'utf8')).toContain('| passes | ✅ |');
  });

  it('--repeat runs each case that many times', async () => {
    const { code, out } = await cli(fixture('named-exports.eval.mjs'), '--repeat', '3');
    expect(code).toBe(0);
    expect(out).toMatch(/^✓ echo 3\/3 \(100%\) passed \(needs 100%\)/m);
  });

  it('exits 2 with what to do on a bad command line or eval file', async () => {
    const cases: [string[], RegExp][] = [
      [[], /needs an eval file \(or --from-session\)/],
      [[fixture('passing.eval.ts'), '--junt', 'x.xml'], /Unknown option --junt/],
      [[fixture('passing.eval.ts'), '--concurrency', '0'], /--concurrency must be a whole number ≥ 1, not "0"/],
      [[fixture('passing.eval.ts'), '--repeat'], /--repeat needs a value/],
      [[join(dir, 'missing.eval.ts')], /No eval file .*missing\.eval\.ts: give the path/],
      [[fixture('bad-set.eval.mjs')], /EvalInputError: The eval set "bad" cannot run; fix:\n {2}- case "empty"\.expect: expects nothing/],
      [[fixture('no-runner.eval.mjs')], /must give one of runner \(a Runner\) or makeRunner/],
      [[fixture('passing.eval.ts'), fixture('mixed.eval.ts')], /takes one eval file, not 2/],
      [['--from-session', 'x', '--store', dir], /needs --store <dir \| postgres:\/\/…> and --out <dir>/],
      [['--from-session', 'x', '--store', join(dir, 'nope'), '--out', dir], /is not a directory/],
    ];
    for (const [argv, message] of cases) {
      const { code, err, out } = await cli(...argv);
      expect({ argv, code }).toEqual({ argv, code: EXIT.usage });
      expect(err).toMatch(message);
      expect(out).toBe('');
    }
  });

  it('--help and -h print the usage', async () => {
    for (const flag of ['--help', '-h']) {
      const { code, out } = await cli(flag);
      expect(code).toBe(0);
      expect(out).toContain('replan eval --from-session <id>');
    }
  });
});

describe('replan eval --from-session', () => {
  it('writes <name>.case.json and <name>.recording.json from a file store session', async () => {
    const store = new FileSessionStore({ dir: join(dir, 'store') });
    const runner = researchRunner({ store, cities: () => ['Lyon', 'Porto'] });
    await runner.run({ userId: 'ana', sessionId: 'prod-42', input: 'Compare Lyon and Porto' }).result();
    const out = join(dir, 'cases');
    const { code, out: printed } = await cli(
      '--from-session',
      'prod-42',
      '--store',
      join(dir, 'store'),
      '--out',
      out,
      '--app',
      'eval-test',
      '--user',
      'ana',
      '--name',
      'compare cities',
    );
    expect(code).toBe(0);
    expect(printed).toContain('compare-cities.case.json (2 tool call(s), answer, status)');
    const written = JSON.parse(await readFile(join(out, 'compare-cities.case.json'), 'utf8'));
    expect(written).toEqual({
      schemaVersion: 1,
      kind: 'replan-eval-case',
      case: {
        name: 'compare cities',
        input: 'Compare Lyon and Porto',
        expect: {
          trajectory: {
            mode: 'exact',
            calls: [
              { name: 'lookup', args: { city: 'Lyon', units: 'metric' } },
              { name: 'lookup', args: { city: 'Porto', units: 'metric' } },
            ],
          },
          answer: 'Answer to Compare Lyon and Porto',
          status: 'completed',
        },
      },
    });
    const recording = JSON.parse(await readFile(join(out, 'compare-cities.recording.json'), 'utf8'));
    expect(recording.kind).toBe('replan-recording');
    expect(recording.sessionId).toBe('prod-42');
    const stored = await store.get({ appName: 'eval-test', userId: 'ana', id: 'prod-42' });
    expect(recording.events).toEqual(JSON.parse(JSON.stringify(stored?.events)));
  });

  it('a session whose input holds an image: the case carries the image bytes, not the blob only its store holds', async () => {
    const store = new FileSessionStore({ dir: join(dir, 'store') });
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 5)]);
    const input = [{ type: 'text' as const, text: 'Lyon, from this map' }, imageFromBytes(png)];
    await researchRunner({ store }).run({ userId: 'ana', sessionId: 'img-1', input }).result();
    const stored = await store.get({ appName: 'eval-test', userId: 'ana', id: 'img-1' });
    expect(stored?.events[0]?.message?.content[1]).toMatchObject({ blob: expect.any(String), size: png.length });
    const out = join(dir, 'cases');
    const args = ['--store', join(dir, 'store'), '--out', out, '--app', 'eval-test', '--user', 'ana', '--name', 'map'];
    expect((await cli('--from-session', 'img-1', ...args)).code).toBe(0);
    const written = JSON.parse(await readFile(join(out, 'map.case.json'), 'utf8'));
    expect(written.case.input.content).toEqual(input);
  });

  it('without --app and --user, and no lookup lent by the replan CLI, says what to give; an unknown id exits 2', async () => {
    const store = join(dir, 'store');
    await researchRunner({ store: new FileSessionStore({ dir: store }) })
      .run({ userId: 'ana', sessionId: 's1', input: 'Lyon' })
      .result();
    const anonymous = await cli('--from-session', 's1', '--store', store, '--out', dir);
    expect(anonymous.code).toBe(2);
    expect(anonymous.err).toContain('Give --app <name> and --user <id>');
    const missing = await cli('--from-session', 'nope', '--store', store, '--out', dir, '--app', 'eval-test', '--user', 'ana');
    expect(missing.code).toBe(2);
    expect(missing.err).toContain('No session "nope"');
  });
});
