import type { TokenCount } from './wire-types.js';

export const time = (ms: number): string => (ms ? new Date(ms).toLocaleString() : '—');

export const clock = (ms: number): string => {
  const d = new Date(ms);
  return `${d.toLocaleTimeString()}.${String(d.getMilliseconds()).padStart(3, '0')}`;
};

export const tokens = (t: TokenCount): string => {
  const base = `${t.input.toLocaleString()} in · ${t.output.toLocaleString()} out`;
  return t.reasoning ? `${base} · ${t.reasoning.toLocaleString()} reasoning` : base;
};

export const duration = (ms: number): string => (ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(2)} s`);
