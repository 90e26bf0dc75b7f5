import { z } from 'zod';
import { tool } from '@replan/core';

/** A small in-memory document base the demo searches. */
export const DOCUMENTS = [
  { id: 'team', text: 'Staffing: the support team has 12 people today; 3 more people join the support team in March.' },
  {
    id: 'pricing',
    text: 'Pricing: the Standard plan costs 49 EUR per seat per month. The Team plan costs 39 EUR per seat per month (10 seats or more).',
  },
  { id: 'billing', text: 'Billing: annual billing gives a 15% discount on any plan, paid up front.' },
  { id: 'security', text: 'Security: data is encrypted at rest and in transit; SSO comes with the Team plan.' },
];

const words = (text: string) => text.toLowerCase().match(/[a-z0-9]+/g) ?? [];

/** Keyword search over `DOCUMENTS`: the best matches by shared words. */
export const searchDocs = tool({
  name: 'search_docs',
  description: 'Search the company documents (staffing, pricing, billing, security). Returns the best matching passages.',
  parameters: z.object({ query: z.string().describe('keywords to look for') }),
  execute: ({ query }) => {
    const q = new Set(words(query));
    const scored = DOCUMENTS.map((d) => ({ ...d, score: words(d.text).filter((w) => q.has(w)).length }))
      .filter((d) => d.score > 0)
      .sort((a, b) => b.score - a.score)
      .slice(0, 2);
    return scored.length ? scored.map((d) => `[${d.id}] ${d.text}`).join('\n') : 'No document matches.';
  },
});

/** Evaluates + - * / and parentheses on numbers, with a real parser (no eval). */
export function evaluate(expression: string): number {
  const tokens = expression.match(/\d+(?:\.\d+)?|[-+*/()]/g) ?? [];
  if (tokens.join('') !== expression.replace(/\s+/g, '')) throw new Error(`unsupported characters in "${expression}"`);
  let i = 0;
  const peek = () => tokens[i];
  const primary = (): number => {
    const t = tokens[i++];
    if (t === '(') {
      const v = sum();
      if (tokens[i++] !== ')') throw new Error('missing ")"');
      return v;
    }
    if (t === '-') return -primary();
    if (t === undefined || Number.isNaN(Number(t))) throw new Error(`unexpected "${t ?? 'end'}"`);
    return Number(t);
  };
  const product = (): number => {
    let v = primary();
    while (peek() === '*' || peek() === '/') {
      const op = tokens[i++];
      const r = primary();
      if (op === '/' && r === 0) throw new Error('division by zero');
      v = op === '*' ? v * r : v / r;
    }
    return v;
  };
  const sum = (): number => {
    let v = product();
    while (peek() === '+' || peek() === '-') v = tokens[i++] === '+' ? v + product() : v - product();
    return v;
  };
  const value = sum();
  if (i !== tokens.length) throw new Error(`unexpected "${tokens[i]}"`);
  return Math.round(value * 1e6) / 1e6;
}

export const calculator = tool({
  name: 'calculator',
  description: 'Evaluate an arithmetic expression with + - * / and parentheses, e.g. "15 * 39 * 12".',
  parameters: z.object({ expression: z.string() }),
  execute: ({ expression }) => evaluate(expression),
});
