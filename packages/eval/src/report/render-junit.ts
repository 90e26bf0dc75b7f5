import type { CaseReport, EvalReport } from './eval-report.js';
import { costText, rate, tokens } from './report-text.js';
import { xmlText } from './xml-text.js';

const seconds = (ms: number) => (ms / 1000).toFixed(3);

/** A failing case whose every run threw (its agent failed, or the run could not start) is an error; else a failure. */
const isError = (c: CaseReport) => !c.pass && c.runs.length > 0 && c.runs.every((r) => r.error);

function caseDetails(c: CaseReport): string {
  const lines = [
    `pass rate ${rate(c.passRate, c.runs.length)}, needs ${Math.round(c.threshold * 100)}%`,
    `cost ${costText(c.cost, c.unpricedModelCalls)}, ${tokens(c.usage)}, mean latency ${Math.round(c.latencyMs)} ms`,
    `sessions: ${c.sessionIds.join(', ') || 'none'}`,
  ];
  for (const k of c.criteria) lines.push(`${k.pass ? 'pass' : 'FAIL'} ${k.criterion} (score ${k.score.toFixed(2)}): ${k.reason}`);
  for (const run of c.runs) if (run.error) lines.push(`run ${run.attempt}: ${run.error.name}: ${run.error.message}`);
  return lines.join('\n');
}

function testCase(suite: string, c: CaseReport): string {
  const open = `    <testcase classname="${xmlText(suite)}" name="${xmlText(c.name)}" time="${seconds(c.latencyMs * c.runs.length)}">`;
  const details = xmlText(caseDetails(c));
  const body: string[] = [];
  if (isError(c)) {
    const first = c.runs[0]?.error;
    body.push(
      `      <error message="${xmlText(first?.message ?? 'the run threw')}" type="${xmlText(first?.name ?? 'Error')}">${details}</error>`,
    );
  } else if (!c.pass) {
    const failing = c.criteria.filter((k) => !k.pass);
    const message = failing.length ? failing.map((k) => `${k.criterion}: ${k.reason}`).join('; ') : 'a run failed';
    body.push(
      `      <failure message="${xmlText(message)}" type="${xmlText(failing.map((k) => k.criterion).join(',') || 'run')}">${details}</failure>`,
    );
  }
  body.push(`      <system-out>${details}</system-out>`);
  return [open, ...body, '    </testcase>'].join('\n');
}

const countsOf = (cases: readonly CaseReport[], ms: number) => {
  const errors = cases.filter(isError).length;
  const failures = cases.filter((c) => !c.pass).length - errors;
  return `tests="${cases.length}" failures="${failures}" errors="${errors}" skipped="0" time="${seconds(ms)}"`;
};

/**
 * The report as JUnit XML (one `<testsuite>` named after the set, one `<testcase>` per case; given
 * several reports, e.g. suites × agent kinds, one `<testsuite>` each): CI systems show its failures
 * next to unit tests. A failing case is a `<failure>` naming the criteria that failed; a case whose
 * runs all threw (the agent failed, or could not start) is an `<error>`. Every text is XML-escaped
 * and characters XML cannot hold are written as visible escapes (ESC as `\u001b`).
 */
export function renderJUnit(report: EvalReport | readonly EvalReport[]): string {
  const reports: readonly EvalReport[] = Array.isArray(report) ? report : [report as EvalReport];
  const all = reports.flatMap((r) => r.cases);
  const total = reports.reduce((ms, r) => ms + r.durationMs, 0);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="replan eval" ${countsOf(all, total)}>`,
    ...reports.flatMap((r) => [
      `  <testsuite name="${xmlText(r.name)}" ${countsOf(r.cases, r.durationMs)} timestamp="${new Date(r.startedAt).toISOString()}">`,
      ...r.cases.map((c) => testCase(r.name, c)),
      '  </testsuite>',
    ]),
    '</testsuites>',
    '',
  ].join('\n');
}
