import { describe, expect, it } from 'vitest';
import { StepAcceptance } from '../src/graph/step-acceptance.js';
import { StepStreamParser } from '../src/graph/step-stream-parser.js';

/** Feeds `text` in chunks of `size` and records after which chunk each object came out. */
function feed(text: string, size: number): { values: unknown[]; at: number[] } {
  const parser = new StepStreamParser();
  const values: unknown[] = [];
  const at: number[] = [];
  for (let i = 0; i < text.length; i += size)
    for (const v of parser.push(text.slice(i, i + size))) {
      values.push(v);
      at.push(i + size);
    }
  return { values, at };
}

const step = (id: string, task: string, dependsOn: string[] = []) => ({ id, task, dependsOn });

describe('StepStreamParser', () => {
  it('yields each step object as its closing brace arrives, whatever the chunking', () => {
    const plan = { steps: [step('1', 'find A'), step('2', 'find B'), step('3', 'rank $1 and $2', ['1', '2'])] };
    const text = JSON.stringify(plan);
    for (const size of [1, 2, 3, 7, 64, text.length]) expect(feed(text, size).values).toEqual(plan.steps);
    // one character at a time: the first step comes out right at its closing brace, long before the end
    const { at } = feed(text, 1);
    expect(at[0]).toBe(text.indexOf('}') + 1);
    expect(at[0]).toBeLessThan(text.length / 2);
  });

  it('is not fooled by quotes, braces, brackets and backslashes inside strings', () => {
    const tricky = [
      step('a', 'say "}" then {"steps":[{"x":1}]} and ] ['),
      step('b', 'a backslash \\ then a quote \\" and "\\\\"'),
      step('c', 'ends with a backslash \\'),
    ];
    const text = JSON.stringify({ steps: tricky });
    for (const size of [1, 2, 5]) expect(feed(text, size).values).toEqual(tricky);
  });

  it('handles whitespace, unicode (escaped and literal, surrogate pairs split across chunks) and escaped keys', () => {
    const text = `{ \n "st\\u0065ps" :\t[\n  { "id": "1", "task": "caf\\u00e9 ☕ 😀 \\ud83d\\ude00", "dependsOn": [ ] } ,\n  {"id":"2","task":"日本語","dependsOn":["1"]}\n ]\n}`;
    const expected = JSON.parse(text).steps;
    for (const size of [1, 3, 4]) expect(feed(text, size).values).toEqual(expected);
    expect(expected[0].task).toContain('😀');
  });

  it('reads only the root object\'s steps array: other keys, nested "steps" and non-object elements are skipped', () => {
    const text = JSON.stringify({
      note: { steps: [{ id: 'no' }] },
      list: [{ id: 'no either' }],
      steps: [step('1', 'x', []), 'not an object', 7, { id: '2', task: 'y', dependsOn: [], extra: { steps: [{ id: 'inner' }] } }],
      after: [{ id: 'nope' }],
    });
    const values = feed(text, 3).values as { id: string }[];
    expect(values.map((v) => v.id)).toEqual(['1', '2']);
  });

  it('yields nothing for an unfinished object and skips one that is not valid JSON', () => {
    const parser = new StepStreamParser();
    expect(parser.push('{"steps":[{"id":"1","task":"half')).toEqual([]);
    expect(parser.push(' done","dependsOn":[]},{"id":"2",,}')).toEqual([step('1', 'half done')]);
    expect(parser.push(',{"id":"3","task":"t","dependsOn":[]}]}')).toEqual([step('3', 't')]);
  });
});

describe('StepAcceptance', () => {
  it('accepts a step once every dependency is accepted, holding forward references', () => {
    const a = new StepAcceptance();
    expect(a.offer(step('3', 'join $1 $2', ['1', '2']))).toEqual([]);
    expect(a.offer(step('1', 'one'))).toEqual([step('1', 'one')]);
    expect(a.offer(step('2', 'two', ['1']))).toEqual([step('2', 'two', ['1']), step('3', 'join $1 $2', ['1', '2'])]);
    expect(a.steps().map((s) => s.id)).toEqual(['1', '2', '3']);
  });

  it('applies the plan rules to each step: schema, duplicates, $id not in dependsOn, self-dependency', () => {
    const a = new StepAcceptance();
    expect(a.offer({ id: 'bad id', task: 'x', dependsOn: [] })).toEqual([]);
    expect(a.offer(step('1', 'one'))).toHaveLength(1);
    expect(a.offer(step('1', 'again'))).toEqual([]); // a duplicate never starts
    expect(a.offer(step('2', 'uses $1 without depending on it'))).toEqual([]);
    expect(a.offer(step('3', 'self', ['3']))).toEqual([]);
    expect(a.size).toBe(1);
  });

  it('requires the complete plan to keep every accepted step unchanged', () => {
    const a = new StepAcceptance([step('1', 'one')]);
    expect(a.offer(step('1', 'one'))).toEqual([]); // re-streamed unchanged (a resumed run): not started twice
    expect(a.keptProblem([step('1', 'one'), step('2', 'two', ['1'])])).toBeUndefined();
    expect(a.keptProblem([step('1', 'changed')])).toMatch(/"1" already started/);
    expect(a.keptProblem([step('2', 'two')])).toMatch(/"1"/);
  });
});
