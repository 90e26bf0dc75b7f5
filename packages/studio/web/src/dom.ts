/**
 * Builds DOM nodes. Text always goes in as text nodes (never parsed as HTML): everything the
 * studio shows comes from models and tools, so nothing here ever sets innerHTML.
 */
export type Child = Node | string | number | null | undefined | false;

export interface Props {
  readonly class?: string;
  readonly attrs?: Readonly<Record<string, string>>;
  readonly on?: { readonly [K in keyof HTMLElementEventMap]?: (event: HTMLElementEventMap[K]) => void };
}

export function append(parent: Node, ...children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(typeof child === 'string' || typeof child === 'number' ? document.createTextNode(String(child)) : child);
  }
}

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, props: Props | null, ...children: Child[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  if (props?.class) element.className = props.class;
  for (const [name, value] of Object.entries(props?.attrs ?? {})) element.setAttribute(name, value);
  for (const [name, listener] of Object.entries(props?.on ?? {})) element.addEventListener(name, listener as EventListener);
  append(element, ...children);
  return element;
}

/** A real button with an accessible name (its text, or `label` when the text is a symbol). */
export function button(
  text: string,
  onClick: () => void,
  options: { class?: string; label?: string; disabled?: boolean } = {},
): HTMLButtonElement {
  const attrs: Record<string, string> = { type: 'button' };
  if (options.label) attrs['aria-label'] = options.label;
  const el = h('button', { class: options.class ?? '', attrs, on: { click: () => onClick() } }, text);
  el.disabled = options.disabled === true;
  return el;
}

/** An input with its visible label. */
export function labelled(text: string, control: HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement, id: string): HTMLElement {
  control.id = id;
  return h('div', { class: 'field' }, h('label', { attrs: { for: id } }, text), control);
}

export function clear(element: Element): void {
  element.replaceChildren();
}

const SVG = 'http://www.w3.org/2000/svg';

export function svg<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attrs: Readonly<Record<string, string | number>> = {},
  ...children: (SVGElement | string)[]
): SVGElementTagNameMap[K] {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attrs)) element.setAttribute(name, String(value));
  for (const child of children) element.appendChild(typeof child === 'string' ? document.createTextNode(child) : child);
  return element;
}
