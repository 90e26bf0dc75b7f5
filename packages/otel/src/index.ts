/**
 * `@replan/otel` — OpenTelemetry traces for replan runs (GenAI semantic conventions): pass
 * `openTelemetry()` in the runner's `observers`. Attribute names and the stored `traceparent`
 * format are internal: read them from the spans, see docs/observability.md.
 * @module
 */
export { openTelemetry } from './open-telemetry-observer.js';
export type { OpenTelemetryOptions } from './open-telemetry-observer.js';
