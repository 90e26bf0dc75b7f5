import type { ContentBlock, Message } from '@replan/core';
import { isMediaBlock, mediaPlaceholder } from '@replan/core/agent-kit';
import type { EvalCase } from './eval-case.js';

/** The content blocks of a case's input (text becomes one text block). */
function contentOf(input: EvalCase['input']): readonly ContentBlock[] {
  if (typeof input === 'string') return [{ type: 'text', text: input }];
  return Array.isArray(input) ? (input as readonly ContentBlock[]) : (input as Message).content;
}

/** What a case's run is given: its input, with its attachments after the input's content. */
export function caseRunInput(evalCase: EvalCase): EvalCase['input'] {
  const attachments = evalCase.attachments ?? [];
  if (!attachments.length) return evalCase.input;
  const content = [...contentOf(evalCase.input), ...attachments];
  return typeof evalCase.input === 'string' || Array.isArray(evalCase.input) ? content : { ...(evalCase.input as Message), content };
}

/** A case's input as reports show it: its text, each image or file as a placeholder (`[image image/png]`), never bytes. */
export function caseInputText(evalCase: EvalCase): string {
  const blocks = [...contentOf(evalCase.input), ...(evalCase.attachments ?? [])];
  // The text as `messageText` reads it, then each image or file.
  const text = blocks.map((b) => (b.type === 'text' ? b.text : '')).join('');
  return [text, ...blocks.filter(isMediaBlock).map(mediaPlaceholder)].filter(Boolean).join(' ');
}
