import { svg } from './dom.js';
import type { PlanStepView } from './wire-types.js';

const NODE_W = 210;
const NODE_H = 54;
const GAP_X = 56;
const GAP_Y = 16;
const PAD = 12;

/** Each step's layer: 0 without dependencies, else one more than its deepest dependency. */
export function layersOf(steps: readonly PlanStepView[]): Map<string, number> {
  const byKey = new Map(steps.map((s) => [s.key, s]));
  const layers = new Map<string, number>();
  const visiting = new Set<string>();
  const layerOf = (key: string): number => {
    const known = layers.get(key);
    if (known !== undefined) return known;
    if (visiting.has(key)) return 0; // a cycle (refused by the planner anyway): cut it
    visiting.add(key);
    const deps = (byKey.get(key)?.dependsOn ?? []).filter((d) => byKey.has(d));
    const layer = deps.length ? Math.max(...deps.map(layerOf)) + 1 : 0;
    visiting.delete(key);
    layers.set(key, layer);
    return layer;
  };
  for (const step of steps) layerOf(step.key);
  return layers;
}

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/**
 * The plan as a dependency graph: a layered layout (columns by dependency depth, rows in plan
 * order), edges as curves from a dependency to its dependant. Every node is focusable and
 * opens the step's detail with a click, Enter or Space.
 */
export function planGraph(steps: readonly PlanStepView[], selected: string | undefined, onSelect: (key: string) => void): SVGSVGElement {
  const layers = layersOf(steps);
  const rows = new Map<number, number>();
  const place = new Map<string, { x: number; y: number }>();
  for (const step of steps) {
    const layer = layers.get(step.key) ?? 0;
    const row = rows.get(layer) ?? 0;
    rows.set(layer, row + 1);
    place.set(step.key, { x: PAD + layer * (NODE_W + GAP_X), y: PAD + row * (NODE_H + GAP_Y) });
  }
  const width = PAD * 2 + (Math.max(0, ...layers.values()) + 1) * (NODE_W + GAP_X) - GAP_X;
  const height = PAD * 2 + Math.max(1, ...rows.values()) * (NODE_H + GAP_Y) - GAP_Y;
  const root = svg('svg', {
    class: 'plan-graph',
    width,
    height,
    viewBox: `0 0 ${width} ${height}`,
    role: 'group',
    'aria-label': 'Plan dependency graph',
  });
  root.appendChild(
    svg(
      'defs',
      {},
      svg(
        'marker',
        { id: 'arrow', viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: 'auto-start-reverse' },
        svg('path', { d: 'M 0 0 L 10 5 L 0 10 z', class: 'arrow-head' }),
      ),
    ),
  );
  for (const step of steps) {
    const to = place.get(step.key);
    for (const dep of step.dependsOn) {
      const from = place.get(dep);
      if (!from || !to) continue;
      const x1 = from.x + NODE_W;
      const y1 = from.y + NODE_H / 2;
      const x2 = to.x;
      const y2 = to.y + NODE_H / 2;
      const mid = (x1 + x2) / 2;
      root.appendChild(
        svg('path', { class: 'edge', d: `M ${x1} ${y1} C ${mid} ${y1}, ${mid} ${y2}, ${x2 - 2} ${y2}`, 'marker-end': 'url(#arrow)' }),
      );
    }
  }
  for (const step of steps) {
    const at = place.get(step.key);
    if (!at) continue;
    const node = svg(
      'g',
      {
        class: `node status-${step.status}${step.key === selected ? ' selected' : ''}`,
        transform: `translate(${at.x} ${at.y})`,
        tabindex: 0,
        role: 'button',
        'aria-label': `Step ${step.key} (${step.status}): ${step.label}`,
        'data-step': step.key,
        'data-status': step.status,
      },
      svg('title', {}, `${step.key}: ${step.label}`),
      svg('rect', { width: NODE_W, height: NODE_H, rx: 8 }),
      svg('circle', { class: 'dot', cx: 14, cy: 16, r: 5 }),
      svg('text', { class: 'node-id', x: 26, y: 20 }, clip(`${step.key} · ${step.status}`, 30)),
      svg('text', { class: 'node-task', x: 12, y: 40 }, clip(step.label, 32)),
    );
    node.addEventListener('click', () => onSelect(step.key));
    node.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' || event.key === ' ') {
        event.preventDefault();
        onSelect(step.key);
      }
    });
    root.appendChild(node);
  }
  return root;
}
