/**
 * The examples script their plan–execute agents with `scriptPlanExecute` (by who calls, never by
 * what the prompt says): an example that matches prompt wording breaks when a prompt changes, and
 * teaches readers to copy it. This scans every example source for the headings of the plan–execute
 * prompts (read from the prompt sources, so a new heading is covered), for planners or replanners
 * scripted by hand, and for plan–execute roles given a hand-written `ScriptedModel` (a summarizer
 * or a plain ReAct agent's model may be one).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
// The TypeScript 5.9 compiler API (a parser): TypeScript 7, the workspace's compiler, has no stable JS API yet.
import ts from 'typescript-5';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const examples = join(root, 'examples');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name === 'dist' ? [] : sources(path);
    return /\.(ts|mts|js|mjs)$/.test(entry.name) ? [path] : [];
  });
}

/** The `## HEADING` lines of the planner, executor and replanner prompts (linear and graph). */
function promptHeadings(): string[] {
  const files = ['base/prompts.ts', 'graph/graph-prompts.ts'].map((f) => readFileSync(join(root, 'packages/planexecute/src', f), 'utf8'));
  return [...new Set(files.flatMap((text) => [...text.matchAll(/## ([A-Z][A-Z ]*[A-Z])/g)].map((m) => m[1] ?? '')))];
}

const roleOptions = new Set(['model', 'plannerModel', 'executorModel', 'replannerModel']);
const builders = /^create(PlanExecuteAgent|Planner|Executor|GraphExecutor|Replanner)$/;

/**
 * The role options (`model`, `plannerModel`, …) of each plan–execute builder call in `text` that
 * get a `new ScriptedModel(…)`, inline or through a variable of the file; other options' models
 * (e.g. `compaction: { model }`) are not roles.
 */
function handWrittenRoles(text: string): string[] {
  const file = ts.createSourceFile('example.ts', text, ts.ScriptTarget.Latest, true);
  const declared = new Map<string, ts.Expression>();
  const calls: ts.CallExpression[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer) declared.set(node.name.text, node.initializer);
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && builders.test(node.expression.text)) calls.push(node);
    ts.forEachChild(node, visit);
  };
  visit(file);
  const handWritten = (e: ts.Expression | undefined): boolean =>
    e !== undefined &&
    ((ts.isNewExpression(e) && e.expression.getText(file) === 'ScriptedModel') ||
      (ts.isIdentifier(e) && declared.get(e.text) !== e && handWritten(declared.get(e.text))));
  return calls.flatMap((call) => {
    const options = call.arguments[0];
    if (options === undefined || !ts.isObjectLiteralExpression(options)) return [];
    return options.properties.flatMap((p) => {
      const name = p.name && ts.isIdentifier(p.name) ? p.name.text : '';
      if (!roleOptions.has(name)) return [];
      const value = ts.isPropertyAssignment(p) ? p.initializer : ts.isShorthandPropertyAssignment(p) ? p.name : undefined;
      return handWritten(value) ? [`${(call.expression as ts.Identifier).text}: ${name}`] : [];
    });
  });
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
      .filter(({ text }) => /\bScriptedModel\b/.test(text))
      .filter(({ text }) => /name: '(plan|respond)'/.test(text) || /toolChoice/.test(text))
      .map(({ name }) => name);
    expect(byHand).toEqual([]);
  });

  it('finds the roles given a hand-written ScriptedModel, inline or through a variable, and no other option', () => {
    const source = `
      const summarizer = new ScriptedModel({});
      const planner = new ScriptedModel({});
      const s = scriptPlanExecute({ plan: {}, steps: {}, answer: '' });
      createPlanExecuteAgent({ model: s.model, plannerModel: planner, executorModel: new ScriptedModel({}), replannerModel: s.replannerModel, compaction: { model: summarizer } });
      const replannerModel = new ScriptedModel({});
      createReplanner({ model: summarizer, replannerModel });`;
    expect(handWrittenRoles(source)).toEqual([
      'createPlanExecuteAgent: plannerModel',
      'createPlanExecuteAgent: executorModel',
      'createReplanner: model',
      'createReplanner: replannerModel',
    ]);
  });

  it('no example gives a plan–execute role a hand-written ScriptedModel (planner, executor and replanner come from scriptPlanExecute)', () => {
    const byHand = files.flatMap(({ name, text }) => handWrittenRoles(text).map((role) => `${name}: ${role}`));
    expect(byHand).toEqual([]);
    // The check reads the builders' calls: the examples build plan–execute agents it can see.
    expect(files.filter(({ text }) => /\bcreatePlanExecuteAgent\(/.test(text)).length).toBeGreaterThan(5);
  });
});
