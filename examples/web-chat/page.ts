/// <reference lib="dom" />
/**
 * The page's script (bundled by esbuild when the server starts): the AI SDK's framework-free
 * `AbstractChat` with `DefaultChatTransport`, rendering the plan, the steps, the tools and the answer.
 * A reload keeps the chat id in the URL and resumes the stream (the transport's reconnect route).
 */
import {
  AbstractChat,
  type ChatState,
  type ChatStatus,
  DefaultChatTransport,
  lastAssistantMessageIsCompleteWithApprovalResponses,
  type UIMessage,
} from 'ai';

/** Plain state for AbstractChat: every change re-renders. */
class PageState implements ChatState<UIMessage> {
  private list: UIMessage[] = [];
  private current: ChatStatus = 'ready';
  error: Error | undefined = undefined;
  constructor(private readonly changed: () => void) {}
  get status(): ChatStatus {
    return this.current;
  }
  set status(status: ChatStatus) {
    this.current = status;
    this.changed();
  }
  get messages(): UIMessage[] {
    return this.list;
  }
  set messages(messages: UIMessage[]) {
    this.list = [...messages];
    this.changed();
  }
  pushMessage = (message: UIMessage) => {
    this.list = [...this.list, message];
    this.changed();
  };
  popMessage = () => {
    this.list = this.list.slice(0, -1);
    this.changed();
  };
  replaceMessage = (index: number, message: UIMessage) => {
    this.list = this.list.map((m, i) => (i === index ? message : m));
    this.changed();
  };
  snapshot = <T>(thing: T): T => structuredClone(thing);
}

class PageChat extends AbstractChat<UIMessage> {
  constructor(id: string, render: () => void) {
    const state = new PageState(render);
    super({
      id,
      state,
      transport: new DefaultChatTransport({ api: '/api/chat' }),
      sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
    });
  }
  /** Messages restored after a reload (before the stream is resumed). */
  restore(messages: UIMessage[]): void {
    this.state.messages = messages;
  }
}

const params = new URLSearchParams(location.search);
let chatId = params.get('chat');
if (!chatId) {
  chatId = `chat-${crypto.randomUUID()}`;
  history.replaceState(null, '', `?chat=${chatId}`);
}

const $ = (id: string) => document.getElementById(id) as HTMLElement;
const el = (tag: string, attrs: Record<string, string> = {}, ...children: (Node | string)[]) => {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  node.append(...children);
  return node;
};

const chat: PageChat = new PageChat(chatId, () => queueMicrotask(render));

/** A tool part's state in words (the AI SDK's states are for code, not for people). */
function toolState(part: { state: string; output?: unknown; errorText?: string }): string {
  switch (part.state) {
    case 'input-streaming':
    case 'input-available':
      return 'running…';
    case 'approval-requested':
      return 'waiting for your approval';
    case 'approval-responded':
      return 'answer sent';
    case 'output-available':
      return `done: ${JSON.stringify(part.output)}`;
    case 'output-denied':
      return 'not approved';
    case 'output-error':
      return `failed: ${part.errorText ?? 'error'}`;
    default:
      return part.state;
  }
}

/** A `data-compensation` part's state in words; `skipped`: its result was never stored, so it is not undone. */
function undoState(undo: { status: string; error?: string }): string {
  if (undo.status === 'failed') return `failed: ${undo.error ?? 'error'}`;
  if (undo.status === 'skipped') return 'not undone (it may not have run): check it by hand';
  return undo.status === 'done' ? 'undone' : 'undoing…';
}

interface StepData {
  readonly number: number;
  readonly step: unknown;
  readonly status: string;
  readonly result?: string;
}

function renderAssistant(message: UIMessage, finished: boolean): HTMLElement {
  const box = el(
    'div',
    { class: 'msg assistant', 'data-testid': 'assistant', 'data-message-id': message.id },
    el('div', { class: 'label' }, 'assistant'),
  );
  // The whole plan: the steps already done, then the latest plan's steps still to run (a revision
  // lists only those), read in the order the parts came.
  const done: string[] = [];
  let pending: string[] = [];
  let revision: number | undefined;
  for (const part of message.parts) {
    if (part.type === 'data-plan') {
      const data = part.data as { plan: { steps: unknown[] }; revision: number };
      pending = data.plan.steps.map(String);
      revision = data.revision;
    } else if (part.type === 'data-step') {
      const step = part.data as StepData;
      if (step.status !== 'done' && step.status !== 'failed') continue;
      const text = String(step.step);
      done.push(text);
      const at = pending.indexOf(text);
      if (at >= 0) pending.splice(at, 1);
    }
  }
  if (revision !== undefined)
    box.append(
      el('div', { class: 'label' }, revision ? `plan (revised ${revision}×)` : 'plan'),
      el('ol', { 'data-testid': 'plan' }, ...[...done, ...pending].map((s) => el('li', {}, s))),
    );
  // Each step with its tools beneath it, in the order they ran; a step's result is shown once, on its line.
  for (const part of message.parts) {
    if (part.type === 'data-step') {
      const step = part.data as StepData;
      box.append(
        el(
          'div',
          { class: 'step', 'data-testid': 'step', 'data-status': step.status },
          el('span', { class: `status ${step.status}` }, step.status),
          `${step.number}. ${String(step.step)}${step.result ? ` — ${step.result}` : ''}`,
        ),
      );
    } else if (part.type === 'dynamic-tool') {
      const line = el(
        'div',
        { class: 'tool', 'data-testid': 'tool', 'data-tool': part.toolName, 'data-state': part.state },
        `${part.toolName}(${JSON.stringify(part.input)}) — ${toolState(part)}`,
      );
      if (part.state === 'approval-requested') {
        const approval = part.approval;
        const approve = el('button', { 'data-testid': 'approve' }, 'Approve');
        const deny = el('button', { 'data-testid': 'deny' }, 'Deny');
        approve.onclick = () => void chat.addToolApprovalResponse({ id: approval.id, approved: true });
        deny.onclick = () => void chat.addToolApprovalResponse({ id: approval.id, approved: false, reason: 'Not now' });
        line.append(' ', approve, ' ', deny);
      }
      box.append(line);
    } else if (part.type === 'data-compensation') {
      // An undone call (the run was cancelled, or a replan dropped its step): shown as what it is, not as another call.
      const undo = part.data as { callId: string; tool: string; status: string; error?: string };
      box.append(
        el(
          'div',
          { class: 'tool', 'data-testid': 'compensation', 'data-tool': undo.tool, 'data-state': undo.status },
          `undo ${undo.tool} (call ${undo.callId}) — ${undoState(undo)}`,
        ),
      );
    }
  }
  // The answer is the message's last text part once the run answered (steps' texts are on their lines).
  const answer = message.parts.at(-1);
  if (finished && answer?.type === 'text' && answer.state === 'done')
    box.append(el('div', { class: 'answer', 'data-testid': 'answer' }, answer.text));
  return box;
}

function render(): void {
  const list = $('messages');
  list.replaceChildren(
    ...chat.messages.map((m, index, all) =>
      m.role === 'user'
        ? el(
            'div',
            { class: 'msg user', 'data-testid': 'user' },
            el('div', { class: 'label' }, 'you'),
            m.parts.map((p) => (p.type === 'text' ? p.text : '')).join(''),
          )
        : renderAssistant(m, index < all.length - 1 || chat.status === 'ready'),
    ),
  );
  $('status').textContent = chat.status === 'ready' ? '' : `(${chat.status})`;
  document.body.dataset.status = chat.status;
}

$('form').addEventListener('submit', (event) => {
  event.preventDefault();
  const input = $('input') as HTMLInputElement;
  const text = input.value.trim();
  if (!text) return;
  input.value = '';
  void chat.sendMessage({ text });
});

// After a reload: the user's messages from the server, then the run's stream replayed and followed live.
const restored = (await (await fetch(`/api/chat/${encodeURIComponent(chatId)}/messages`)).json()) as UIMessage[];
if (restored.length) {
  chat.restore(restored);
  await chat.resumeStream();
}
render();
