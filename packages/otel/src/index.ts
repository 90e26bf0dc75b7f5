export { openTelemetry, TRACE_PARENT_KEY } from './open-telemetry-observer.js';
export type { OpenTelemetryOptions } from './open-telemetry-observer.js';
export { Attr as GenAiAttributes } from './attributes.js';
export { formatTraceParent, parseTraceParent } from './trace-parent.js';
