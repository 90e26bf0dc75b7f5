import { imageFromBytes, InMemorySessionStore, type ModelRequest, ReActAgent, Runner } from '@replan/core';
import { ScriptedModel } from '@replan/core/testing';
import { describe, expect, it } from 'vitest';
import { defineEvalSet, type EvalInputError, runEval } from '@replan/eval';

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 7, 7, 7]);
const invoice = imageFromBytes(PNG);

/** A model that reads the total off an image when its last user message holds one, and says so when it does not. */
const reader = () =>
  new ScriptedModel({
    respond: (request: ModelRequest) => {
      const images = (request.messages.findLast((m) => m.role === 'user')?.content ?? []).filter((b) => b.type === 'image');
      return images.length
        ? `I see ${images.length} image(s) of ${images.map((i) => i.mediaType).join(', ')}: the total is 520.80.`
        : 'I see no image.';
    },
  });

describe('eval cases with images', () => {
  it('attach images to a case (attachments, or content blocks in its input): the agent gets them, reports name them', async () => {
    const model = reader();
    const runner = new Runner({
      agent: new ReActAgent({ name: 'reader', model }),
      appName: 'invoices',
      sessionStore: new InMemorySessionStore(),
    });
    const set = defineEvalSet({
      name: 'invoices',
      cases: [
        {
          name: 'attached',
          input: 'What is the total?',
          attachments: [invoice],
          expect: { answer: /1 image\(s\) of image\/png: the total is 520\.80/ },
        },
        { name: 'in the input', input: [{ type: 'text', text: 'Total?' }, invoice], expect: { answer: /the total is 520\.80/ } },
        { name: 'without', input: 'What is the total?', expect: { answer: /the total is/ } },
      ],
    });
    const report = await runEval({ set, runner });
    expect(report.cases.map((c) => [c.name, c.pass])).toEqual([
      ['attached', true],
      ['in the input', true],
      ['without', false],
    ]);
    // the model got the text, then the image (its bytes, as the run's input would give them)
    expect(model.requests[0]?.messages.at(-1)?.content).toEqual([{ type: 'text', text: 'What is the total?' }, invoice]);
    // the case text in the report names the image, never its bytes
    const shown = JSON.stringify(report);
    expect(shown).not.toContain(invoice.data);
  });

  it('refuses an attachment that is not an image or file block, naming the case', () => {
    const problemsOf = (attachment: unknown) => {
      try {
        defineEvalSet({
          name: 'x',
          cases: [{ name: 'bad', input: 'hi', attachments: [attachment as never], expect: { status: 'completed' } }],
        });
      } catch (error) {
        expect(error).toMatchObject({ name: 'EvalInputError', kind: 'set' });
        return (error as EvalInputError).problems;
      }
      throw new Error('defineEvalSet accepted the attachment');
    };
    const message = 'case "bad".attachments[0]: must be an image or a file block (imageFromFile, imageFromBytes, fileFromPath, …)';
    expect(problemsOf('invoice.png')).toEqual([message]);
    expect(problemsOf({ type: 'text', text: 'no' })).toEqual([
      message.replace('[0]', '[0].type'),
      'case "bad".attachments[0].mediaType: must be a media type such as "image/png"',
    ]);
  });
});
