import type { Session } from '@replan/core';

/** The text of each stored event's first content block (contractEvent's text), in order. */
export const eventTexts = (session: Session | undefined): string[] =>
  (session?.events ?? []).map((e) => (e.message?.content[0] as { text?: string } | undefined)?.text ?? '');
