import { describe, expect, it } from 'vitest';
import { assistantMessage, messageText, toolMessage, userMessage } from '@replan/core';

describe('messageText', () => {
  it('gives a tool message’s text: each result’s output as the model reads it, one line each', () => {
    const message = toolMessage([
      { type: 'tool_result', toolCallId: 'c1', name: 'weather', output: 'sunny, 21 °C' },
      { type: 'tool_result', toolCallId: 'c2', name: 'count', output: { n: 3 } },
      { type: 'tool_result', toolCallId: 'c3', name: 'fail', output: 'service down', isError: true },
    ]);
    expect(messageText(message)).toBe('sunny, 21 °C\n{"n":3}\nservice down');
  });

  it('keeps other messages to their text blocks (reasoning and tool calls left out)', () => {
    expect(messageText(userMessage('hi'))).toBe('hi');
    expect(
      messageText(
        assistantMessage([
          { type: 'reasoning', reasoning: 'hm' },
          { type: 'text', text: 'a' },
          { type: 'tool_call', id: 'c1', name: 't', args: {} },
          { type: 'text', text: 'b' },
        ]),
      ),
    ).toBe('ab');
    expect(messageText(undefined)).toBe('');
  });
});
