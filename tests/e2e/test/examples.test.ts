import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const examples = readdirSync(new URL('../../../examples/', import.meta.url), { withFileTypes: true })
  .filter((d) => d.isDirectory() && d.name !== 'node_modules')
  .map((d) => d.name);

// Every example must run offline and exit 0, so none rots unnoticed. They run on the built
// packages (`pnpm test` builds first), as a user runs them.
/** Lines an example must print: its answers follow what its tools returned, a refusal included. */
const TRUTHS: Record<string, readonly string[]> = {
  'budget-answer': [
    "onExhausted 'answer', at most 7 model calls: completed after 7 calls",
    'answer: Prices found: laptop: 1290 EUR, monitor: 240 EUR.',
    'partial: not run: Look up the price of the keyboard. | Look up the price of the desk.',
  ],
  'durable-resume': [
    'resume with approval: completed — Done: sent 250 EUR to ACME.',
    'resume with a refusal: completed — Nothing was done: The user rejected this call of "transfer": wrong month.',
    'side effects: 1 transfer(s)',
  ],
  // A plan grant: the booking the approved plan names runs unasked; another train asks again.
  'plan-review': [
    'asked:    plan_review\n  granted:  by plan review',
    'answer:   Done: Booked 1 seat(s) on the Night train 21:40.',
    'asked:    plan_review, approval\n  granted:  no (outside the grant: asked again)\n  answer:   Done: Booked 1 seat(s) on the Sleeper 23:10.',
  ],
  compensation: [
    'undone  book_flight TP1350: cancelled R1',
    'undone  book_hotel Hotel Sintra: cancelled R2',
    'still booked: flight TP1350, hotel Hotel Baixa',
  ],
  'code-step': [
    'resumed with approval: completed — Flagged 5 of 12 invoices for review: INV-2, INV-5, INV-7, INV-8, INV-10; finance was told.',
    'side effects: 12 invoice(s) fetched, each once',
    'finance told: 1 time(s), about INV-2, INV-5, INV-7, INV-8, INV-10',
  ],
};

describe('examples run offline', () => {
  const env = { ...process.env };
  delete env.OPENAI_API_KEY;
  delete env.OPENAI_BASE_URL;
  it('finds the examples', () => expect(examples).toEqual(expect.arrayContaining(['demo', 'react', 'durable-resume'])));
  for (const name of examples)
    it(name, () => {
      const run = spawnSync(process.execPath, ['--import', 'tsx', `examples/${name}/main.ts`], {
        cwd: root,
        env,
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(run.stderr).not.toMatch(/Error/);
      expect(run.status, `${name} printed:\n${run.stdout}\n${run.stderr}`).toBe(0);
      expect(run.stdout.trim().length).toBeGreaterThan(0);
      // What an example says ran is what its tools did.
      for (const claim of TRUTHS[name] ?? []) expect(run.stdout, name).toContain(claim);
    });
});
