import type { RunnerView, TokenCount } from './wire-types.js';

export const time = (ms: number): string => (ms ? new Date(ms).toLocaleString() : '—');

const two = (n: number) => String(n).padStart(2, '0');

/** `14:03:07.215`: events of one run are milliseconds apart. */
export const clock = (ms: number): string => {
  const d = new Date(ms);
  return `${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}.${String(d.getMilliseconds()).padStart(3, '0')}`;
};

/** `1,200 in · 300 out`, then reasoning, cached input and cache writes, each only when non-zero. */
export const tokens = (t: TokenCount): string => {
  const extra = [
    [t.reasoning, 'reasoning'],
    [t.cached, 'cached'],
    [t.cacheWrite, 'cache write'],
  ] as const;
  const parts = extra.filter(([n]) => n).map(([n, label]) => `${n.toLocaleString()} ${label}`);
  return [`${t.input.toLocaleString()} in · ${t.output.toLocaleString()} out`, ...parts].join(' · ');
};

/** A cost in the price table's unit: enough digits for a single cheap call. */
export const cost = (amount: number): string => `cost ${amount.toPrecision(3)}`;

export const duration = (ms: number): string => (ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(2)} s`);

/** `1 event`, `2 events`: a count with its noun, singular for one (`plural` when adding an s will not do). */
export const count = (n: number, noun: string, plural = `${noun}s`): string => `${n.toLocaleString()} ${n === 1 ? noun : plural}`;

/** How a runner's models answer, said after its app: `(scripted)` when they are canned (offline), `(replay)` for a recording. */
export const offlineNote = (runner: RunnerView): string => {
  const kinds = [...new Set(runner.models.map((m) => m.offline).filter((k) => k !== undefined))];
  if (!kinds.length) return '';
  const some = runner.models.some((m) => m.offline === undefined) ? 'partly ' : '';
  return `${some}${kinds.join(' and ')}, offline`;
};

/** `replan-demo (scripted, offline)`. */
export const runnerLabel = (runner: RunnerView): string => {
  const note = offlineNote(runner);
  return note ? `${runner.app} (${note})` : runner.app;
};
