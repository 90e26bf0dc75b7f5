import type { ContentBlock, ReasoningKind } from '../messages/content-block.js';

/** The PlanReAct tags, as a model is asked to write them. */
export const PLAN_REACT_TAGS = {
  planning: '/*PLANNING*/',
  replanning: '/*REPLANNING*/',
  reasoning: '/*REASONING*/',
  action: '/*ACTION*/',
  finalAnswer: '/*FINAL_ANSWER*/',
} as const;

type Segment = ReasoningKind | 'final' | 'untagged';

// Tolerant of what models really write: any case, inner spaces, `FINAL ANSWER`, and a closing
// form `/*/TAG*/`. The global one is only used through matchAll, which works on a copy, so its
// lastIndex is never shared between calls.
const TAG = /\/\*\s*(\/?)\s*(PLANNING|REPLANNING|REASONING|ACTION|FINAL[_ ]ANSWER)\s*\*\//gi;
const ANY_TAG = new RegExp(TAG.source, 'i');
const FINAL_TAG = /\/\*\s*\/?\s*FINAL[_ ]ANSWER\s*\*\//i;

const segmentOf = (name: string): Segment => {
  const lower = name.toLowerCase();
  return lower.startsWith('final') ? 'final' : (lower as ReasoningKind);
};

/**
 * Turns PlanReAct-tagged text blocks into content blocks: the text after `/*PLANNING*\/`,
 * `/*REPLANNING*\/`, `/*REASONING*\/` and `/*ACTION*\/` becomes `reasoning` blocks with that
 * `reasoningKind`; the text after `/*FINAL_ANSWER*\/` becomes one tag-free `text` block.
 *
 * - A tag lasts until the next tag, across text blocks; its closing form (a slash before the
 *   name, `/*\/ACTION*\/`) ends it.
 * - A repeated reasoning tag starts a new block; a repeated `FINAL_ANSWER` (models often write
 *   it as a pair, around the answer) continues the answer: all answer parts join into one text
 *   block, so nothing is lost and no tag ever reaches the answer.
 * - Untagged text stays `text` — unless the message has a final answer, which is then the whole
 *   answer, and untagged text around it becomes `reasoning` without a kind.
 * - Other blocks (tool calls, native reasoning) keep their place. Blocks and arrays given are
 *   never changed; with no tag anywhere the same array is returned.
 */
export function splitPlanReActTags(blocks: readonly ContentBlock[]): readonly ContentBlock[] {
  let tagged = false;
  let hasFinal = false;
  for (const block of blocks) {
    if (block.type !== 'text' || !ANY_TAG.test(block.text)) continue;
    tagged = true;
    if (FINAL_TAG.test(block.text)) hasFinal = true;
  }
  if (!tagged) return blocks;

  const out: ContentBlock[] = [];
  const answer: string[] = [];
  let answerAt = -1;
  const emit = (segment: Segment, raw: string) => {
    const text = raw.trim();
    if (!text) return;
    if (segment === 'final') {
      if (answerAt < 0) {
        answerAt = out.length;
        out.push({ type: 'text', text: '' }); // the joined answer goes here, where it began
      }
      answer.push(text);
    } else if (segment === 'untagged') out.push(hasFinal ? { type: 'reasoning', reasoning: text } : { type: 'text', text });
    else out.push({ type: 'reasoning', reasoning: text, reasoningKind: segment });
  };

  let current: Segment = 'untagged';
  for (const block of blocks) {
    if (block.type !== 'text') {
      out.push(block);
      continue;
    }
    if (current === 'untagged' && !hasFinal && !ANY_TAG.test(block.text)) {
      out.push(block); // plain text between tagged blocks stays exactly as written
      continue;
    }
    let from = 0;
    for (const match of block.text.matchAll(TAG)) {
      emit(current, block.text.slice(from, match.index));
      from = match.index + match[0].length;
      current = match[1] ? 'untagged' : segmentOf(match[2] as string);
    }
    emit(current, block.text.slice(from));
  }
  if (answerAt >= 0) out[answerAt] = { type: 'text', text: answer.join('\n\n') };
  return out;
}

const TAG_OF: Record<ReasoningKind, string> = {
  planning: PLAN_REACT_TAGS.planning,
  replanning: PLAN_REACT_TAGS.replanning,
  reasoning: PLAN_REACT_TAGS.reasoning,
  action: PLAN_REACT_TAGS.action,
};

/**
 * The reverse: writes reasoning and text blocks as PlanReAct-tagged text (e.g. to show a
 * conversation to a model that only reads text). Reasoning with a kind gets its tag, text gets
 * `/*FINAL_ANSWER*\/` (last, joined), reasoning without a kind comes first, untagged (a tag
 * would last until the next one); tool calls, results and signature-only reasoning are left out.
 * When there is an answer, `splitPlanReActTags` of the result gives the blocks back (trimmed).
 */
export function joinPlanReActTags(blocks: readonly ContentBlock[]): string {
  const untagged: string[] = [];
  const tagged: string[] = [];
  let answer = '';
  for (const block of blocks) {
    if (block.type === 'reasoning') {
      if (!block.reasoning.trim()) continue;
      if (block.reasoningKind) tagged.push(`${TAG_OF[block.reasoningKind]}\n${block.reasoning}`);
      else untagged.push(block.reasoning);
    } else if (block.type === 'text') answer += block.text;
  }
  if (answer.trim()) tagged.push(`${PLAN_REACT_TAGS.finalAnswer}\n${answer}`);
  return [...untagged, ...tagged].join('\n');
}
