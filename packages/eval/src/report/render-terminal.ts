import type { CaseReport, EvalReport } from './eval-report.js';
import { costText, duration, oneLine, rate, tokens } from './report-text.js';

export interface RenderTerminalOptions {
  /** ANSI colours (default: when stdout is a TTY and `NO_COLOR` is not set). */
  readonly color?: boolean;
}

function paint(color: boolean) {
  const code = (n: string) => (text: string) => (color ? `\x1b[${n}m${text}\x1b[0m` : text);
  return { bold: code('1'), dim: code('2'), green: code('32'), red: code('31') };
}

const defaultColor = () => process.stdout.isTTY === true && !process.env.NO_COLOR;

/**
 * The report as plain text for a terminal: a line per case (✓/✗, pass rate, cost, tokens,
 * latency, session ids), the criteria of failing cases with their reasons, then the totals. Model
 * text is kept to one line with control characters escaped, so an answer cannot move the cursor.
 */
export function renderTerminal(report: EvalReport, options: RenderTerminalOptions = {}): string {
  const s = paint(options.color ?? defaultColor());
  const lines = [s.bold(`eval ${oneLine(report.name)}`), ''];
  for (const c of report.cases) lines.push(...caseLines(c, report.repeat, s));
  const verdict = report.pass ? s.green(`PASS`) : s.red(`FAIL`);
  lines.push(
    '',
    `${verdict} ${report.passed}/${report.cases.length} cases passed · ${costText(report.cost, report.unpricedModelCalls)} · ${tokens(report.usage)} · ${duration(report.durationMs)}`,
  );
  return lines.join('\n');
}

function caseLines(c: CaseReport, repeat: number, s: ReturnType<typeof paint>): string[] {
  const mark = c.pass ? s.green('✓') : s.red('✗');
  const passRate = repeat > 1 ? ` ${rate(c.passRate, c.runs.length)} passed (needs ${Math.round(c.threshold * 100)}%)` : '';
  // Many repeats would fill the line with ids: the first three say where to look.
  const shown = c.sessionIds.slice(0, 3).map((id) => oneLine(id, 80));
  const more = c.sessionIds.length > 3 ? ` (+${c.sessionIds.length - 3} more)` : '';
  const sessions = shown.length ? s.dim(` session ${shown.join(', ')}${more}`) : '';
  const lines = [
    `${mark} ${oneLine(c.name)}${passRate} ${s.dim(`· ${costText(c.cost, c.unpricedModelCalls)} · ${tokens(c.usage)} · ${duration(c.latencyMs)}`)}${sessions}`,
  ];
  if (c.pass) return lines;
  for (const criterion of c.criteria) {
    if (criterion.pass) continue;
    const share = repeat > 1 ? ` ${rate(criterion.passRate, c.runs.length)}` : '';
    lines.push(`    ${s.red('✗')} ${criterion.criterion}${share} (score ${criterion.score.toFixed(2)}): ${oneLine(criterion.reason)}`);
  }
  for (const run of c.runs)
    if (run.error) lines.push(`    ${s.red('!')} run ${run.attempt}: ${oneLine(run.error.name)}: ${oneLine(run.error.message)}`);
  return lines;
}
