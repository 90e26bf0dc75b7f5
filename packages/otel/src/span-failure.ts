import { SpanStatusCode, type Span } from '@opentelemetry/api';
import { Attr } from './attributes.js';

/** Marks a span failed: status ERROR with the message, and `error.type`. */
export function fail(span: Span, error: Error | undefined, fallbackType = '_OTHER', message?: string): void {
  const text = message ?? error?.message;
  span.setStatus(text ? { code: SpanStatusCode.ERROR, message: text } : { code: SpanStatusCode.ERROR });
  span.setAttribute(Attr.errorType, error?.name ?? fallbackType);
}
