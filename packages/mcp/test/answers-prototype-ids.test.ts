import { describe, expect, it } from 'vitest';
import { answersOf } from '../src/server/agent-call.js';

describe('answersOf: interrupt ids named like Object.prototype members', () => {
  it('an answer missing for "constructor" is said, not taken from Object.prototype', () => {
    expect(answersOf(['constructor', 'b'], { answers: { b: 1 } })).toBe('"answers" lacks an answer for "constructor".');
    expect(answersOf(['constructor', 'b'], { answers: { constructor: 'yes', b: 1 } })).toEqual({ constructor: 'yes', b: 1 });
  });
});
