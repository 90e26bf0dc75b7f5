import { describe, expect, it } from 'vitest';

// Listed so that a change to the public surface is a visible diff.
describe('public surface of @replan/ai-sdk', () => {
  it('exports aiSdkModel and its model class (its errors are core ModelError), and the UI message streams with their error', async () => {
    expect(Object.keys(await import('@replan/ai-sdk')).sort()).toEqual([
      'AiSdkChatModel',
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
