/**
 * How `<think>…</think>` in the message content is read — the thinking of models served without
 * a reasoning parser (vLLM without `--reasoning-parser`, llama.cpp, some Ollama and LM Studio
 * models, DeepSeek-R1 distills, Qwen3, QwQ):
 * - `auto` (default): only when the content starts, after optional whitespace, with `<think>`;
 * - `on`: also when the opening tag is missing (the chat template wrote it into the prompt): the
 *   content is thinking up to `</think>` — and all of it when `</think>` never comes;
 * - `off`: the content is left alone.
 */
export type ThinkTagsMode = 'auto' | 'on' | 'off';

/** Every `ThinkTagsMode`, e.g. to check a value read from the environment. */
export const THINK_TAGS_MODES: readonly ThinkTagsMode[] = ['auto', 'on', 'off'];

/** A run of message content: thinking (between the tags) or answer text. */
export interface ContentSegment {
  readonly kind: 'reasoning' | 'text';
  readonly text: string;
}

const OPEN = '<think>';
const CLOSE = '</think>';

/** `start`: not yet known whether thinking comes; `thinking`: inside it; `answer`: after `</think>`; `plain`: content passes through. */
type State = 'start' | 'thinking' | 'answer' | 'plain';

/**
 * Splits message content into thinking and answer as it streams. The result depends only on the
 * whole content, never on where chunks were cut, so a stream and a whole message give the same
 * text. At a chunk boundary it holds back at most a partial tag (plus the whitespace right before
 * a partial `</think>`, dropped if the tag completes), so no tag fragment reaches either side.
 * Only one thinking section, at the start, is read: a `<think>` later in the answer is answer text.
 * The thinking drops its surrounding whitespace and the answer its leading whitespace.
 */
export class ThinkTagSplitter {
  private state: State;
  private pending = '';
  /** Drop whitespace until the next visible character (right after a tag). */
  private trimNext = false;

  constructor(private readonly mode: ThinkTagsMode = 'auto') {
    this.state = mode === 'off' ? 'plain' : 'start';
  }

  /** Adds a chunk of content; returns the segments that are now certain. */
  push(chunk: string): ContentSegment[] {
    if (!chunk) return [];
    if (this.state === 'plain') return [{ kind: 'text', text: chunk }];
    this.pending += chunk;
    const out: ContentSegment[] = [];
    this.drain(out, false);
    return out;
  }

  /** The content has ended: returns what was held back. */
  end(): ContentSegment[] {
    const out: ContentSegment[] = [];
    this.drain(out, true);
    this.pending = '';
    return out;
  }

  /** What `end()` would return, without ending (for the partial message of a failed stream). */
  peekEnd(): ContentSegment[] {
    if (!this.pending) return [];
    const copy = new ThinkTagSplitter(this.mode);
    copy.state = this.state;
    copy.pending = this.pending;
    copy.trimNext = this.trimNext;
    return copy.end();
  }

  private drain(out: ContentSegment[], final: boolean): void {
    for (;;) {
      switch (this.state) {
        case 'start':
          if (!this.decideStart(final)) return;
          break;
        case 'thinking': {
          const close = this.pending.indexOf(CLOSE);
          if (close < 0) {
            const held = final ? trailingSpaceLength(this.pending) : heldLength(this.pending);
            this.emit(out, 'reasoning', this.pending.slice(0, this.pending.length - held));
            this.pending = final ? '' : this.pending.slice(this.pending.length - held);
            return;
          }
          this.emit(out, 'reasoning', this.pending.slice(0, close).trimEnd());
          this.pending = this.pending.slice(close + CLOSE.length);
          this.state = 'answer';
          this.trimNext = true;
          break;
        }
        case 'answer':
          this.emit(out, 'text', this.pending);
          this.pending = '';
          if (!this.trimNext) this.state = 'plain';
          return;
        case 'plain':
          this.emit(out, 'text', this.pending);
          this.pending = '';
          return;
      }
    }
  }

  /** Decides whether the content starts with thinking; false while it cannot tell yet. */
  private decideStart(final: boolean): boolean {
    const rest = this.pending.trimStart();
    if (rest.startsWith(OPEN)) {
      this.pending = rest.slice(OPEN.length);
      this.state = 'thinking';
      this.trimNext = true;
      return true;
    }
    const maybeOpen = OPEN.startsWith(rest);
    if (maybeOpen && !final) return false;
    if (this.mode === 'on') {
      // Thinking without its opening tag; a cut-off opening tag at the very end is not thinking.
      if (maybeOpen) this.pending = '';
      this.state = 'thinking';
      this.trimNext = true;
      return true;
    }
    this.state = 'plain';
    return true;
  }

  /** Appends `raw` (less the whitespace a tag asked to drop) to `out`, merging with a last segment of the same kind. */
  private emit(out: ContentSegment[], kind: ContentSegment['kind'], raw: string): void {
    const text = this.trimNext ? raw.trimStart() : raw;
    if (!text) return;
    this.trimNext = false;
    const last = out.at(-1);
    if (last?.kind === kind) out[out.length - 1] = { kind, text: last.text + text };
    else out.push({ kind, text });
  }
}

/** How much of the end of thinking text to hold: a partial `</think>` and the whitespace before it. */
function heldLength(text: string): number {
  let partial = 0;
  for (let n = Math.min(CLOSE.length - 1, text.length); n > 0; n--)
    if (text.endsWith(CLOSE.slice(0, n))) {
      partial = n;
      break;
    }
  return partial + trailingSpaceLength(text.slice(0, text.length - partial));
}

function trailingSpaceLength(text: string): number {
  return text.length - text.trimEnd().length;
}
