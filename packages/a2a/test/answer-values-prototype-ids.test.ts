import type { Interrupt } from '@replan/core';
import { describe, expect, it } from 'vitest';
import { answerValues } from '../src/server/message-input.js';

const open = (...ids: string[]) => ids.map((id) => ({ id, reason: 'input', payload: {} }) as unknown as Interrupt);

describe('answerValues: interrupt ids named like Object.prototype members', () => {
  it('an answer missing for "constructor" is said, not taken from Object.prototype', () => {
    expect(answerValues(open('constructor', 'b'), { data: { answers: { b: 1 } } } as never)).toBe(
      '"answers" lacks an answer for "constructor".',
    );
    expect(answerValues(open('constructor', 'b'), { data: { answers: { constructor: 'yes', b: 1 } } } as never)).toEqual({
      constructor: 'yes',
      b: 1,
    });
  });
});
