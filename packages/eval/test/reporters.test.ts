import { SaxesParser } from 'saxes';
import { describe, expect, it } from 'vitest';
import { defineEvalSet, type EvalReport, renderJUnit, renderMarkdown, renderTerminal, runEval } from '@replan/eval';
import { researchRunner } from './support/agents.js';

/** Text no report may break on: markup, a CDATA end, an entity, quotes, control and escape characters, a lone surrogate. */
const HOSTILE = `<b>&amp; "quoted" 'single' ]]> \u0000\u0007\u001b[31mred\u001b[0m \ud800 end`;
/** The same as an input (and so in the answer): no lone surrogate, which session state refuses. */
const HOSTILE_INPUT = HOSTILE.replace('\ud800', '');

async function mixedReport(): Promise<EvalReport> {
  const set = defineEvalSet({
    name: `set ${HOSTILE}`,
    cases: [
      { name: 'passes', input: 'Tell me about Lyon', expect: { answer: /Lyon/, status: 'completed' } },
      { name: `fails ${HOSTILE}`, input: `Tell me about Lyon ${HOSTILE_INPUT}`, expect: { answer: 'something else', status: 'completed' } },
      { name: 'throws', input: 'Tell me about Lyon BOOM', expect: { answer: /x/ } },
    ],
  });
  return runEval({ set, runner: researchRunner({ failOn: 'BOOM' }) });
}

/** Parses XML strictly (XML 1.0 characters, well-formedness); returns the elements as `name attrs` and their text. */
function parseXml(xml: string): { elements: { name: string; attributes: Record<string, string>; text: string }[] } {
  const parser = new SaxesParser();
  const elements: { name: string; attributes: Record<string, string>; text: string }[] = [];
  const open: (typeof elements)[number][] = [];
  parser.on('error', (error) => {
    throw error;
  });
  parser.on('opentag', (tag) => {
    const element = { name: tag.name, attributes: tag.attributes as Record<string, string>, text: '' };
    elements.push(element);
    open.push(element);
  });
  parser.on('text', (text) => {
    const top = open.at(-1);
    if (top) top.text += text;
  });
  parser.on('closetag', () => open.pop());
  parser.write(xml).close();
  return { elements };
}

describe('reporters', () => {
  it('JUnit: valid XML whatever the names and answers hold; failures and errors where they belong', async () => {
    const report = await mixedReport();
    const xml = renderJUnit(report);
    expect(xml).not.toContain('\u0000');
    expect(xml).not.toContain(']]>');
    const { elements } = parseXml(xml);
    const suite = elements.find((e) => e.name === 'testsuite');
    expect(suite?.attributes).toMatchObject({ tests: '3', failures: '1', errors: '1' });
    // Escaped text reads back as written; characters XML cannot hold read as \\uXXXX.
    expect(suite?.attributes.name).toBe(`set <b>&amp; "quoted" 'single' ]]> \\u0000\\u0007\\u001b[31mred\\u001b[0m \\ud800 end`);
    const cases = elements.filter((e) => e.name === 'testcase');
    expect(cases.map((c) => c.attributes.name?.slice(0, 9))).toEqual(['passes', 'fails <b>', 'throws']);
    const failure = elements.find((e) => e.name === 'failure');
    expect(failure?.attributes.type).toBe('answer');
    expect(failure?.attributes.message).toContain('answer: expected "something else", got "Answer to Tell me about Lyon <b>&amp;');
    const error = elements.find((e) => e.name === 'error');
    expect(error?.attributes.message).toBe('Model call of agent "planner" failed: planner exploded on BOOM');
    expect(error?.attributes.type).toBe('ModelCallError');
    expect(elements.filter((e) => e.name === 'system-out')[0]?.text).toMatch(/sessions: \S+/);
  });

  it('JUnit: an all-passing report has no failure or error elements', async () => {
    const set = defineEvalSet({ name: 'green', cases: [{ name: 'ok', input: 'Lyon', expect: { status: 'completed' } }] });
    const xml = renderJUnit(await runEval({ set, runner: researchRunner() }));
    const { elements } = parseXml(xml);
    expect(elements.map((e) => e.name)).toEqual(['testsuites', 'testsuite', 'testcase', 'system-out']);
    expect(elements[0]?.attributes).toMatchObject({ tests: '1', failures: '0', errors: '0' });
  });

  it('terminal: plain text without a TTY (no escape codes, not even the answer’s), colours when asked', async () => {
    const report = await mixedReport();
    const plain = renderTerminal(report, { color: false });
    expect(plain).not.toContain('\u001b');
    expect(plain).toContain('\\u001b[31mred');
    expect(plain).toMatch(/^✓ passes · \$0\.08 · 60 tokens \(40 in \/ 20 out\) · \d+ ms session \S+$/m);
    expect(plain).toMatch(/^✗ fails <b>/m);
    expect(plain).toContain('    ✗ answer (score 0.00): expected "something else"');
    expect(plain).toContain('    ! run 1: ModelCallError: Model call of agent "planner" failed: planner exploded on BOOM');
    expect(plain).toMatch(/FAIL 1\/3 cases passed/);
    const coloured = renderTerminal(report, { color: true });
    expect(coloured).toContain('\u001b[31mFAIL\u001b[0m');
    // Under Vitest stdout is no TTY: the default is plain.
    expect(renderTerminal(report)).toBe(plain);
  });

  it('Markdown: a table row per case, cells escaped, failures listed', async () => {
    const md = renderMarkdown(await mixedReport());
    expect(md).toMatch(/^## Eval set &lt;b&gt;&amp;amp; .*: ❌ fail$/m);
    expect(md).toContain('| passes | ✅ | ✓ answer 1.00, ✓ status 1.00 |');
    const rows = md.split('\n').filter((l) => l.startsWith('| fails'));
    expect(rows).toHaveLength(1);
    // No raw pipe or tag from the case name inside its row.
    expect(rows[0]?.split(' | ')[0]).toBe(
      '| fails &lt;b&gt;&amp;amp; "quoted" \'single\' ]]&gt; \\u0000\\u0007\\u001b[31mred\\u001b[0m \\ud800 end',
    );
    expect(md).toContain('### Failures');
    expect(md).toContain('  - run 1: ModelCallError: Model call of agent "planner" failed: planner exploded on BOOM');
  });

  it('an unpriced run says "unpriced", never $0, in every reporter; a partly priced set says how many calls lack a price', async () => {
    const set = defineEvalSet({
      name: 'unpriced',
      cases: [{ name: 'lyon', input: 'Tell me about Lyon', expect: { status: 'completed' } }],
    });
    const report = await runEval({ set, runner: researchRunner({ unpriced: true }) });
    expect(report.unpricedModelCalls).toBe(4);
    expect(report.cases[0]?.runs[0]?.unpricedModelCalls).toBe(4);
    const terminal = renderTerminal(report, { color: false });
    expect(terminal).toMatch(/^✓ lyon · unpriced \(4 calls unpriced\) · 60 tokens/m);
    expect(terminal).toMatch(/^PASS 1\/1 cases passed · unpriced \(4 calls unpriced\) · /m);
    expect(terminal).not.toContain('$0');
    expect(renderMarkdown(report)).toContain('| unpriced (4 calls unpriced) |');
    expect(renderJUnit(report)).toContain('cost unpriced (4 calls unpriced), 60 tokens');

    const priced = await runEval({ set, runner: researchRunner() });
    const mixed: EvalReport = { ...report, cost: priced.cost, cases: [...priced.cases, ...report.cases] };
    expect(renderTerminal(mixed, { color: false })).toMatch(/cases passed · \$0\.08 \+ 4 calls unpriced · /);
  });
});
