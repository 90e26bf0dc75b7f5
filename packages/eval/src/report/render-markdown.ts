import type { EvalReport } from './eval-report.js';
import { costText, duration, oneLine, rate, tokens } from './report-text.js';

/** Text inside a Markdown table cell: one line, `|` and HTML-significant characters escaped, backticks kept literal. */
function cell(text: string): string {
  return oneLine(text, 300).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\|/g, '\\|').replace(/`/g, '\\`');
}

/**
 * The report as Markdown (e.g. a CI job summary or a PR comment): a summary line, a table of
 * cases, then the failing criteria with their reasons. Text from models is escaped for tables.
 */
export function renderMarkdown(report: EvalReport): string {
  const lines = [
    `## Eval ${cell(report.name)}: ${report.pass ? '✅ pass' : '❌ fail'}`,
    '',
    `${report.passed}/${report.cases.length} cases passed${report.repeat > 1 ? ` (${report.repeat} runs each)` : ''} · ${costText(report.cost, report.unpricedModelCalls)} · ${tokens(report.usage)} · ${duration(report.durationMs)}`,
    '',
    '| case | result | criteria | cost | tokens | latency | sessions |',
    '| --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const c of report.cases) {
    const result = `${c.pass ? '✅' : '❌'}${report.repeat > 1 ? ` ${rate(c.passRate, c.runs.length)}` : ''}`;
    const criteria = c.criteria.map((k) => `${k.pass ? '✓' : '✗'} ${k.criterion} ${k.score.toFixed(2)}`).join(', ');
    lines.push(
      `| ${cell(c.name)} | ${result} | ${criteria} | ${costText(c.cost, c.unpricedModelCalls)} | ${tokens(c.usage)} | ${duration(c.latencyMs)} | ${c.sessionIds.map(cell).join(', ')} |`,
    );
  }
  const failures = report.cases.filter((c) => !c.pass);
  if (failures.length) {
    lines.push('', '### Failures', '');
    for (const c of failures) {
      lines.push(`- **${cell(c.name)}**`);
      for (const k of c.criteria) if (!k.pass) lines.push(`  - ${k.criterion}: ${cell(k.reason)}`);
      for (const run of c.runs) if (run.error) lines.push(`  - run ${run.attempt}: ${cell(run.error.name)}: ${cell(run.error.message)}`);
    }
  }
  return `${lines.join('\n')}\n`;
}
