import { describe, expect, it } from 'vitest';

// Listed so that a change to the public surface is a visible diff.
describe('public surface of @replan/ai-sdk', () => {
  it('exports aiSdkModel, its model class and its typed errors, and the UI message streams with theirs', async () => {
    expect(Object.keys(await import('@replan/ai-sdk')).sort()).toEqual([
      'UIStreamError',
      'aiSdkModel',
      'approvalResponsesOf',
      'assistantMessageId',
      'createUIMessageStreamResponse',
      'resumeFromApprovals',
      'resumeUIMessageStream',
      'resumeUIMessageStreamResponse',
      'toUIMessageStream',
      'uiChunkId',
      'uiMessageStreamResponse',
      'writeUIStreamResponse',
    ]);
  });
});
