import { costText, duration, oneLine } from '../report/report-text.js';
import type { SuiteReport } from './run-suite.js';

const percent = (share: number) => `${Math.round(share * 100)}%`;
const tokensOf = (r: SuiteReport) => (r.report.usage.inputTokens + r.report.usage.outputTokens).toLocaleString('en-US');

/** One row per suite × agent: success, pass^k, model calls, tokens, cost and mean latency. */
function rows(reports: readonly SuiteReport[]): string[][] {
  return reports.map((r) => [
    oneLine(r.suite, 40),
    oneLine(r.agent, 40),
    `${percent(r.success)} (${r.report.passed}/${r.report.cases.length} tasks)`,
    r.repeat > 1 ? percent(r.passK) : '—',
    r.modelCalls.toLocaleString('en-US'),
    tokensOf(r),
    costText(r.report.cost, r.report.unpricedModelCalls),
    duration(r.latencyMs),
  ]);
}

const HEADER = ['suite', 'agent', 'success', 'pass^k', 'model calls', 'tokens', 'cost', 'latency / run'];

/** The comparison as a fixed-width text table (for a terminal). */
export function renderSuiteTable(reports: readonly SuiteReport[]): string {
  const table = [HEADER, ...rows(reports)];
  const widths = HEADER.map((_, i) => Math.max(...table.map((row) => (row[i] as string).length)));
  const line = (row: readonly string[]) =>
    row
      .map((cell, i) => cell.padEnd(widths[i] as number))
      .join('  ')
      .trimEnd();
  const k = reports[0]?.repeat ?? 1;
  return [
    line(HEADER),
    widths.map((w) => '-'.repeat(w)).join('  '),
    ...rows(reports).map(line),
    '',
    `pass^k: share of tasks whose ${k} run(s) all passed.`,
  ].join('\n');
}

/** The comparison as a Markdown table (cells escaped). */
export function renderSuiteMarkdown(reports: readonly SuiteReport[]): string {
  const cell = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\|/g, '\\|');
  return [
    `| ${HEADER.join(' | ')} |`,
    `| ${HEADER.map(() => '---').join(' | ')} |`,
    ...rows(reports).map((row) => `| ${row.map(cell).join(' | ')} |`),
    '',
  ].join('\n');
}
