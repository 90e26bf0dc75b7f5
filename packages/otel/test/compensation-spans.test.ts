import { InMemorySpanExporter, SimpleSpanProcessor, BasicTracerProvider } from '@opentelemetry/sdk-trace-base';
import { InMemorySessionStore, ReActAgent, Runner } from '@replan/core';
import { ScriptedModel, callTools } from '@replan/core/testing';
import { openTelemetry } from '@replan/otel';
import { createExecutor, createPlanExecuteAgent, createPlanner, createReplanner } from '@replan/planexecute';
import { describe, expect, it } from 'vitest';
import { flightBooking, payTool } from '../../core/test/support/bookings.js';

describe('compensation spans', () => {
  it('runner.cancel with compensate: the closing run span says so, each compensation is an execute_tool span naming the call it undoes', async () => {
    const store = new InMemorySessionStore();
    const model = new ScriptedModel({
      responses: [callTools({ name: 'book_flight', id: 'f1', args: { what: 'LHR' } }, { name: 'pay', id: 'p1', args: {} })],
    });
    const agent = new ReActAgent({ name: 'travel', model, tools: [flightBooking, payTool] });
    const first = await new Runner({ agent, appName: 'otel-test', sessionStore: store })
      .run({ userId: 'u', sessionId: 's', input: 'go' })
      .result();
    expect(first.status).toBe('interrupted');

    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const runner = new Runner({
      agent,
      appName: 'otel-test',
      sessionStore: store,
      observers: [openTelemetry({ tracerProvider: provider })],
    });
    const cancelled = await runner.cancel({ userId: 'u', sessionId: 's', compensate: true }).result();
    expect(cancelled.status).toBe('aborted');

    const spans = exporter.getFinishedSpans();
    const root = spans.find((s) => s.name === 'invoke_agent travel');
    expect(root?.attributes).toMatchObject({ 'replan.resumed': true, 'replan.cancel.compensate': true, 'replan.run.status': 'aborted' });
    const tools = spans.filter((s) => s.attributes['gen_ai.operation.name'] === 'execute_tool');
    expect(tools).toHaveLength(1);
    expect(tools[0]?.name).toBe('execute_tool book_flight');
    expect(tools[0]?.attributes).toMatchObject({
      'gen_ai.tool.name': 'book_flight',
      'gen_ai.tool.call.id': 'f1:compensate',
      'replan.compensates.tool_call.id': 'f1',
    });
    expect(tools[0]?.parentSpanContext?.spanId).toBe(root?.spanContext().spanId);
  });

  it('a replan that drops a failed step: the compensation is an execute_tool span under the replanner’s plan span', async () => {
    const steps = new ScriptedModel({
      respond: (_request, call) => (call === 0 ? callTools({ name: 'book_flight', id: 'f1', args: { what: 'LHR' } }) : 'never'),
    });
    const agent = createPlanExecuteAgent({
      planner: createPlanner({ model: new ScriptedModel({ responses: [callTools({ name: 'plan', args: { steps: ['fly'] } })] }) }),
      executor: createExecutor({ model: steps, tools: [flightBooking], maxIterations: 1 }),
      replanner: createReplanner({
        model: new ScriptedModel({ responses: [callTools({ name: 'respond', args: { response: 'no trip' } })] }),
      }),
      compensateDropped: true,
    });
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const runner = new Runner({ agent, appName: 'otel-test', observers: [openTelemetry({ tracerProvider: provider })] });
    expect((await runner.run({ userId: 'u', sessionId: 's', input: 'go' }).result()).output).toBe('no trip');
    const spans = exporter.getFinishedSpans();
    const undo = spans.find((s) => s.attributes['replan.compensates.tool_call.id'] === 'f1');
    expect(undo?.name).toBe('execute_tool book_flight');
    expect(undo?.attributes['gen_ai.tool.call.id']).toBe('f1:compensate');
    const parent = spans.find((s) => s.spanContext().spanId === undo?.parentSpanContext?.spanId);
    expect(parent?.name).toBe('plan replanner');
  });
});
