import { h } from './dom.js';
import { clock, tokens } from './format.js';
import { type BlobLoader, mediaElement } from './media-view.js';
import type { BlockView, CompactionView, EventView, InnerCallView, MemoryView } from './wire-types.js';

function blockElement(block: BlockView, load: BlobLoader): HTMLElement {
  switch (block.type) {
    case 'text':
      return h('div', { class: 'block block-text' }, h('pre', null, block.text));
    case 'reasoning':
      return h('details', { class: 'block block-reasoning' }, h('summary', null, 'Reasoning'), h('pre', null, block.text));
    case 'tool_call':
      if (block.program !== undefined) return codeCallElement(block);
      return h(
        'div',
        { class: 'block block-tool-call' },
        h('div', { class: 'block-head' }, `Tool call · ${block.name}`, h('span', { class: 'muted' }, ` ${block.id}`)),
        h('pre', null, block.args),
      );
    case 'tool_result':
      return h(
        'div',
        { class: `block block-tool-result${block.isError ? ' is-error' : ''}` },
        h('div', { class: 'block-head' }, `${block.isError ? 'Tool error' : 'Tool result'} · ${block.name}`),
        h('pre', null, block.output),
        ...(block.media ?? []).map((m) => mediaElement(m, load)),
      );
    case 'media':
      return mediaElement(block.media, load);
  }
}

/** A code call: its program as text (model-written: never markup), and how much of it was cut off. */
function codeCallElement(block: Extract<BlockView, { type: 'tool_call' }>): HTMLElement {
  const cut = block.programCut ? ` · ${block.programCut.toLocaleString()} more characters not shown` : '';
  return h(
    'div',
    { class: 'block block-tool-call block-code-call' },
    h('div', { class: 'block-head' }, `Code · ${block.name}`, h('span', { class: 'muted' }, ` ${block.id}${cut}`)),
    h('pre', { class: 'program', attrs: { 'aria-label': 'Program' } }, block.program ?? ''),
  );
}

/** The calls a code call's program made, nested under it: `#n name(args) → output`, each opening its own event. */
function innerCallsElement(calls: readonly InnerCallView[], cut: number | undefined, open?: (index: number) => void): HTMLElement {
  return h(
    'div',
    { class: 'block inner-calls' },
    h('div', { class: 'block-head' }, `Calls the program made (${calls.length + (cut ?? 0)})`),
    h(
      'ol',
      { class: 'inner-call-list', attrs: { 'aria-label': 'Calls the program made' } },
      ...calls.map((c) =>
        h(
          'li',
          { class: `inner-call${c.isError ? ' is-error' : ''}`, attrs: { 'data-event-index': String(c.eventIndex) } },
          open
            ? h(
                'button',
                {
                  class: 'inner-call-index link',
                  attrs: { type: 'button', 'aria-label': `Open call #${c.index}, ${c.name}` },
                  on: { click: () => open(c.eventIndex) },
                },
                `#${c.index}`,
              )
            : h('span', { class: 'inner-call-index' }, `#${c.index}`),
          ' ',
          h('strong', null, c.name),
          h('code', null, c.args),
          c.output !== undefined
            ? h('span', { class: 'inner-call-output' }, ` → ${c.isError ? 'error: ' : ''}${c.output}`)
            : h('span', { class: 'muted' }, ' (no result yet)'),
        ),
      ),
      cut ? h('li', { class: 'muted' }, `… ${cut.toLocaleString()} more`) : null,
    ),
  );
}

/** A compaction: what it summarised, and the summary the model is shown from then on (quoted as data). */
function compactionElement(c: CompactionView): HTMLElement {
  const turns = `${c.turns.toLocaleString()} turn${c.turns === 1 ? '' : 's'}`;
  return h(
    'div',
    { class: 'block block-compaction' },
    h(
      'div',
      { class: 'block-head' },
      `Compaction · summarised ${turns} · context ~${c.tokensBefore.toLocaleString()} → ~${c.tokensAfter.toLocaleString()} tokens`,
    ),
    h('pre', null, c.summary),
  );
}

/** Long-term memory at this event: each memory as text (it is untrusted), with where it came from and its score. */
function memoryElement(m: MemoryView): HTMLElement {
  return h(
    'div',
    { class: 'block block-memory' },
    h('div', { class: 'block-head' }, `Memory · ${m.heading}`),
    m.problem ? h('div', { class: 'block block-error', attrs: { role: 'note' } }, m.problem) : null,
    h(
      'ul',
      { class: 'memory-list' },
      ...m.entries.map((e) =>
        h(
          'li',
          null,
          h(
            'span',
            { class: 'muted' },
            `${e.kind}${e.from ? ` · ${e.from}` : ''}${e.score !== undefined ? ` · score ${e.score.toFixed(2)}` : ''} `,
          ),
          h('pre', null, e.text),
        ),
      ),
    ),
  );
}

/**
 * One event's message (text, reasoning, tool calls and results, images and files), error and
 * tokens; `load` fetches blobs; `open` shows another event (a code call's inner calls link to theirs).
 */
export function eventBody(view: EventView, load: BlobLoader, open?: (index: number) => void): HTMLElement {
  const inner = view.codeCall;
  return h(
    'article',
    { class: inner ? 'event-body code-inner' : 'event-body' },
    h(
      'div',
      { class: 'event-meta' },
      h('span', { class: 'path' }, view.path),
      ` #${view.index} · ${clock(view.timestamp)}${view.role ? ` · ${view.role}` : ''}`,
      view.tokens ? ` · ${view.compaction ? 'summarizer ' : ''}${tokens(view.tokens)}` : '',
      inner ? ` · call #${inner.index} of code call ${inner.id}` : '',
    ),
    ...view.blocks.map((b) => blockElement(b, load)),
    // A call the approved plan covered ran without asking: name the review that approved it.
    view.grantedBy
      ? h('div', { class: 'block block-grant', attrs: { role: 'note' } }, `Approved with the plan · review ${view.grantedBy}`)
      : null,
    view.innerCalls ? innerCallsElement(view.innerCalls, view.innerCallsCut, open) : null,
    view.compaction ? compactionElement(view.compaction) : null,
    view.memory ? memoryElement(view.memory) : null,
    view.error
      ? h('div', { class: 'block block-error', attrs: { role: 'note' } }, h('strong', null, view.error.name), `: ${view.error.message}`)
      : null,
  );
}
