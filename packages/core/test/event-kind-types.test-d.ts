import { describe, expectTypeOf, test } from 'vitest';
import {
  eventKind,
  type AgentEvent,
  type EventError,
  type FinalAnswer,
  type Interrupt,
  type Message,
  type ReasoningBlock,
  type RunStatus,
  type ToolCallBlock,
  type ToolResultBlock,
} from '@replan/core';
import type { AgentEventKind } from '../src/events/event-kind.js';
import type { CompactionRecord } from '../src/events/agent-event.js';

declare const event: AgentEvent;

describe('eventKind narrows by `kind`', () => {
  test('the kinds a consumer can switch on', () => {
    expectTypeOf<AgentEventKind['kind']>().toEqualTypeOf<
      | 'error'
      | 'end'
      | 'interrupt'
      | 'text-delta'
      | 'reasoning-delta'
      | 'answer'
      | 'tool-calls'
      | 'tool-results'
      | 'resume'
      | 'user-message'
      | 'message'
      | 'cursor'
      | 'state'
      | 'compaction'
      | 'other'
    >();
  });

  test('each case of a switch sees only its own fields', () => {
    const k = eventKind(event);
    switch (k.kind) {
      case 'error':
        expectTypeOf(k.error).toEqualTypeOf<EventError>();
        break;
      case 'end':
        expectTypeOf(k.status).toEqualTypeOf<RunStatus>();
        expectTypeOf(k.output).toEqualTypeOf<string | undefined>();
        break;
      case 'interrupt':
        expectTypeOf(k.interrupt).toEqualTypeOf<Interrupt>();
        break;
      case 'text-delta':
      case 'reasoning-delta':
        expectTypeOf(k.text).toEqualTypeOf<string>();
        break;
      case 'answer':
        expectTypeOf(k.final).toEqualTypeOf<FinalAnswer>();
        expectTypeOf(k.reasoning).toEqualTypeOf<readonly ReasoningBlock[]>();
        break;
      case 'tool-calls':
        expectTypeOf(k.calls).toEqualTypeOf<readonly ToolCallBlock[]>();
        expectTypeOf(k.message).toEqualTypeOf<Message>();
        break;
      case 'tool-results':
        expectTypeOf(k.results).toEqualTypeOf<readonly ToolResultBlock[]>();
        break;
      case 'resume':
        expectTypeOf(k.values).toEqualTypeOf<Readonly<Record<string, unknown>>>();
        break;
      case 'user-message':
      case 'message':
        expectTypeOf(k.message).toEqualTypeOf<Message>();
        break;
      case 'cursor':
        expectTypeOf(k.state).toEqualTypeOf<Readonly<Record<string, unknown>>>();
        break;
      case 'state':
        expectTypeOf(k.delta).toEqualTypeOf<Readonly<Record<string, unknown>>>();
        expectTypeOf(k.append).toEqualTypeOf<Readonly<Record<string, readonly unknown[]>>>();
        break;
      case 'compaction':
        expectTypeOf(k.compaction).toEqualTypeOf<CompactionRecord>();
        break;
      default:
        // Every other kind was handled above: only `other` is left.
        expectTypeOf(k).toEqualTypeOf<{ readonly kind: 'other' }>();
    }
  });

  test("another kind's field is a type error until the kind is checked", () => {
    const k = eventKind(event);
    // @ts-expect-error `calls` exists only on 'tool-calls'
    k.calls;
    if (k.kind === 'text-delta') {
      // @ts-expect-error a text delta has no `final`
      k.final;
      expectTypeOf(k).toEqualTypeOf<{ readonly kind: 'text-delta'; readonly text: string }>();
    }
    // @ts-expect-error 'tool-call' is not a kind (it is 'tool-calls')
    if (k.kind === 'tool-call') return;
  });
});
