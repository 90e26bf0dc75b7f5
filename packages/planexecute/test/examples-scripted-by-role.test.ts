/**
 * The examples script their plan–execute agents with `scriptPlanExecute` (by who calls, never by
 * what the prompt says): an example that matches prompt wording breaks when a prompt changes, and
 * teaches readers to copy it. This scans every example source for the headings of the plan–execute
 * prompts (read from the prompt sources, so a new heading is covered) and for planners or replanners
 * scripted by hand.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const examples = join(root, 'examples');

/** Example sources that may script a planner or replanner by hand, and why. */
const handScripted: Readonly<Record<string, string>> = {
  // Its models answer with the facts they can still see after compaction: what the example measures.
  'long-step/long-step.ts': 'compaction keeps every fact',
};

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name === 'dist' ? [] : sources(path);
    return /\.(ts|mts|js|mjs)$/.test(entry.name) ? [path] : [];
  });
}

/** The `## HEADING` lines of the planner, executor and replanner prompts (linear and graph). */
function promptHeadings(): string[] {
  const files = ['prompts.ts', 'graph/graph-prompts.ts'].map((f) => readFileSync(join(root, 'packages/planexecute/src', f), 'utf8'));
  return [...new Set(files.flatMap((text) => [...text.matchAll(/## ([A-Z][A-Z ]*[A-Z])/g)].map((m) => m[1] ?? '')))];
}

const files = sources(examples).map((path) => ({ name: relative(examples, path).replaceAll('\\', '/'), text: readFileSync(path, 'utf8') }));

describe('the examples script plan–execute agents by role, not by prompt text', () => {
  it('finds the prompt headings and the example sources it checks', () => {
    expect(promptHeadings()).toEqual(expect.arrayContaining(['YOUR STEP', 'YOUR TASK', 'COMPLETED STEPS AND RESULTS', 'PLAN']));
    expect(files.map((f) => f.name)).toEqual(expect.arrayContaining(['demo/scripted-brain.ts', 'parallel-plans/main.ts']));
  });

  it('no example quotes a plan–execute prompt heading', () => {
    const headings = promptHeadings();
    const quoting = files.flatMap(({ name, text }) =>
      // `## PLAN` as a heading; a heading of several words (`YOUR STEP`) anywhere, e.g. `section(request, 'YOUR STEP')`.
      headings.filter((h) => text.includes(`## ${h}`) || (h.includes(' ') && text.includes(h))).map((h) => `${name}: "${h}"`),
    );
    expect(quoting).toEqual([]);
  });

  it('no example scripts a planner or replanner by hand (plan and respond calls come from scriptPlanExecute)', () => {
    const byHand = files
      .filter(({ name, text }) => !(name in handScripted) && /\bScriptedModel\b/.test(text))
      .filter(({ text }) => /name: '(plan|respond)'/.test(text) || /toolChoice/.test(text))
      .map(({ name }) => name);
    expect(byHand).toEqual([]);
  });

  it('no example builds a plan–execute agent on a hand-written ScriptedModel', () => {
    const byHand = files
      .filter(({ name, text }) => !(name in handScripted) && /new ScriptedModel\(/.test(text))
      .filter(({ text }) => /\bcreate(PlanExecuteAgent|Planner|Executor|GraphExecutor|Replanner)\(/.test(text))
      .map(({ name }) => name);
    expect(byHand).toEqual([]);
  });
});
