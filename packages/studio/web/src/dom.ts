import { describeHidden, escapeHidden, splitHidden } from './visible-text.js';

/**
 * Builds DOM nodes. Text always goes in as text nodes (never parsed as HTML): everything the
 * studio shows comes from models and tools, so nothing here ever sets innerHTML. Hidden
 * characters (bidi overrides, zero-width and control characters) are shown as codes, in a
 * `.hidden-char` element, so text reads as it is stored.
 */
const SVG = 'http://www.w3.org/2000/svg';

export type Child = Node | string | number | null | undefined | false;

export interface Props {
  readonly class?: string;
  readonly attrs?: Readonly<Record<string, string>>;
  readonly on?: { readonly [K in keyof HTMLElementEventMap]?: (event: HTMLElementEventMap[K]) => void };
}

/** Elements whose content is plain text only (no markup shows there): hidden characters go in as `⟨U+202E⟩` (its code point). */
const TEXT_ONLY = new Set(['OPTION', 'TEXTAREA', 'TITLE', 'title']);

/** Text as nodes: plain runs as text, each hidden character as a visible, styled code. */
export function visibleText(text: string, parent?: Node): Node {
  if (parent && TEXT_ONLY.has(parent.nodeName)) return document.createTextNode(escapeHidden(text));
  const parts = splitHidden(text);
  if (parts.length === 1 && typeof parts[0] === 'string') return document.createTextNode(text);
  const inSvg = parent instanceof SVGElement;
  const fragment = document.createDocumentFragment();
  for (const part of parts) {
    if (typeof part === 'string') {
      fragment.appendChild(document.createTextNode(part));
      continue;
    }
    const code = inSvg ? document.createElementNS(SVG, 'tspan') : document.createElement('span');
    code.setAttribute('class', 'hidden-char');
    if (!inSvg) code.setAttribute('title', describeHidden(part.hidden));
    code.textContent = escapeHidden(part.hidden);
    fragment.appendChild(code);
  }
  return fragment;
}

/** Replaces an element's text (hidden characters shown as codes). */
export function setText(element: Element, text: string): void {
  element.replaceChildren(visibleText(text, element));
}

export function append(parent: Node, ...children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(typeof child === 'string' || typeof child === 'number' ? visibleText(String(child), parent) : child);
  }
}

/** Attributes people read (tooltips, accessible names, hints): hidden characters as codes. */
const READ_ATTRIBUTES = new Set(['title', 'aria-label', 'placeholder', 'label']);
const attributeValue = (name: string, value: string) => (READ_ATTRIBUTES.has(name) ? escapeHidden(value) : value);

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, props: Props | null, ...children: Child[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  if (props?.class) element.className = props.class;
  for (const [name, value] of Object.entries(props?.attrs ?? {})) element.setAttribute(name, attributeValue(name, value));
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

export function svg<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attrs: Readonly<Record<string, string | number>> = {},
  ...children: (SVGElement | string)[]
): SVGElementTagNameMap[K] {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attrs)) element.setAttribute(name, attributeValue(name, String(value)));
  for (const child of children) element.appendChild(typeof child === 'string' ? visibleText(child, element) : child);
  return element;
}
