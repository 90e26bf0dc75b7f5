import { describe, expect, it } from 'vitest';
import { ThinkTagSplitter, type ContentSegment, type ThinkTagsMode } from '../src/reasoning/think-tags.js';

/** Feeds `chunks` and ends; returns the reasoning and text, and the segments each push returned. */
function split(mode: ThinkTagsMode, chunks: readonly string[]) {
  const splitter = new ThinkTagSplitter(mode);
  const perPush: ContentSegment[][] = chunks.map((c) => splitter.push(c));
  perPush.push(splitter.end());
  const all = perPush.flat();
  const join = (kind: ContentSegment['kind']) =>
    all
      .filter((s) => s.kind === kind)
      .map((s) => s.text)
      .join('');
  return { reasoning: join('reasoning'), text: join('text'), perPush };
}

/** Every way to cut `content` into three chunks. */
function* cuts(content: string): Generator<string[]> {
  for (let i = 0; i <= content.length; i++)
    for (let j = i; j <= content.length; j++) yield [content.slice(0, i), content.slice(i, j), content.slice(j)];
}

describe('ThinkTagSplitter', () => {
  const cases: [ThinkTagsMode, string, string, string][] = [
    ['auto', '<think>\nLet me see.\n</think>\n\nIt is 4.', 'Let me see.', 'It is 4.'],
    ['auto', '  \n<think>a  b</think>ok ', 'a  b', 'ok '],
    ['auto', '<think></think>Answer', '', 'Answer'],
    ['auto', '<think>\n\n</think>\n\nAnswer', '', 'Answer'],
    ['auto', '<think>x</think>see <think>y</think>', 'x', 'see <think>y</think>'],
    ['auto', 'Use <think>tags</think>.', '', 'Use <think>tags</think>.'],
    ['auto', '  <b>hi</b>  ', '', '  <b>hi</b>  '],
    ['auto', '<thinking>no</thinking>', '', '<thinking>no</thinking>'],
    ['auto', '<thi', '', '<thi'],
    ['auto', 'Hmm.</think>Answer', '', 'Hmm.</think>Answer'],
    ['auto', '<think>cut short by max_tokens </thi', 'cut short by max_tokens </thi', ''],
    ['on', 'Hmm, 2+2.\n</think>\n\n4', 'Hmm, 2+2.', '4'],
    ['on', '<think>Hmm.</think>4', 'Hmm.', '4'],
    ['on', 'still thinking when it stopped', 'still thinking when it stopped', ''],
    ['on', '<thin', '', ''],
    ['off', '<think>a</think>b', '', '<think>a</think>b'],
  ];

  it.each(cases)('%s: %j gives the same split however it is chunked', (mode, content, reasoning, text) => {
    for (const chunks of cuts(content)) expect(split(mode, chunks), JSON.stringify(chunks)).toMatchObject({ reasoning, text });
  });

  it('holds back no more than a partial tag (and the whitespace before it)', () => {
    const { perPush } = split('auto', ['<think>abc', ' def </th', 'ink>\nAns', 'wer <thi', 'nk>']);
    expect(perPush).toEqual([
      [{ kind: 'reasoning', text: 'abc' }],
      [{ kind: 'reasoning', text: ' def' }],
      [{ kind: 'text', text: 'Ans' }],
      [{ kind: 'text', text: 'wer <thi' }],
      [{ kind: 'text', text: 'nk>' }],
      [],
    ]);
  });

  it('peekEnd shows what is held without ending', () => {
    const splitter = new ThinkTagSplitter('auto');
    expect(splitter.push('<think>abc </th')).toEqual([{ kind: 'reasoning', text: 'abc' }]);
    expect(splitter.peekEnd()).toEqual([{ kind: 'reasoning', text: ' </th' }]);
    expect(splitter.push('ink>done')).toEqual([{ kind: 'text', text: 'done' }]);
    expect(splitter.end()).toEqual([]);
  });
});
