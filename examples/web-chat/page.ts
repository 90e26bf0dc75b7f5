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

function renderAssistant(message: UIMessage, finished: boolean): HTMLElement {
  const box = el(
    'div',
    { class: 'msg assistant', 'data-testid': 'assistant', 'data-message-id': message.id },
    el('div', { class: 'label' }, 'assistant'),
  );
  const texts = message.parts.filter((p) => p.type === 'text');
  const answer = texts.at(-1);
  for (const part of message.parts) {
    if (part.type === 'data-plan') {
      const { plan, revision } = part.data as { plan: { steps: unknown[] }; revision: number };
      box.append(
        el('div', { class: 'label' }, revision ? `plan (revision ${revision})` : 'plan'),
        el('ol', { 'data-testid': 'plan' }, ...plan.steps.map((s) => el('li', {}, String(s)))),
      );
    } else if (part.type === 'data-step') {
      const step = part.data as { number: number; step: unknown; status: string; result?: string };
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
        `${part.toolName}(${JSON.stringify(part.input)}) → ${part.state === 'output-available' ? JSON.stringify(part.output) : part.state}`,
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
    } else if (part.type === 'text' && part !== answer) box.append(el('div', { class: 'note' }, part.text));
  }
  // The answer is the message's last text part once the run answered: while the stream is open, a
  // step's closing text is the last part for a moment too (until the replanner's answer follows it).
  if (finished && answer && answer.state === 'done' && message.parts.at(-1) === answer)
    box.append(el('div', { class: 'answer', 'data-testid': 'answer' }, answer.text));
  else if (answer) box.append(el('div', { class: 'note' }, answer.text));
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
  if (!input.value.trim()) return;
  void chat.sendMessage({ text: input.value });
});

// After a reload: the user's messages from the server, then the run's stream replayed and followed live.
const restored = (await (await fetch(`/api/chat/${encodeURIComponent(chatId)}/messages`)).json()) as UIMessage[];
if (restored.length) {
  chat.restore(restored);
  await chat.resumeStream();
}
render();
