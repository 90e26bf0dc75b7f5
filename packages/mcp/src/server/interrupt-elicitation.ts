import type { Interrupt } from '@replan/core';

/** A form to show the user, and how its answer becomes the interrupt's resume value. */
export interface InterruptQuestion {
  readonly message: string;
  readonly requestedSchema: {
    readonly type: 'object';
    readonly properties: Record<string, Record<string, unknown>>;
    readonly required?: string[];
  };
  /** The resume value for an answer; `undefined` when the user gave none (the call then returns a resume token). */
  answer(action: 'accept' | 'decline' | 'cancel', content: Record<string, unknown> | undefined): unknown;
}

const describe = (interrupt: Interrupt) => {
  const payload = interrupt.payload === undefined ? '' : `\n${JSON.stringify(interrupt.payload, null, 2)}`;
  const who = interrupt.toolName === undefined ? '' : ` (tool "${interrupt.toolName}")`;
  return `${interrupt.reason}${who}${payload}`;
};

/**
 * The elicitation form for an interrupt. An approval asks yes or no (declining is a no, so the run goes on
 * without the tool); any other interrupt asks for a text answer (declining leaves it open, for a resume token).
 */
export function interruptQuestion(interrupt: Interrupt): InterruptQuestion {
  if (interrupt.reason === 'approval')
    return {
      message: `Approve this tool call? ${describe(interrupt)}`,
      requestedSchema: {
        type: 'object',
        properties: {
          approved: { type: 'boolean', title: 'Approve' },
          message: { type: 'string', title: 'Note for the agent' },
        },
        required: ['approved'],
      },
      answer: (action, content) => {
        const message = typeof content?.message === 'string' && content.message !== '' ? { message: content.message } : {};
        return action === 'accept'
          ? { approved: content?.approved === true, ...message }
          : { approved: false, message: 'The user declined.' };
      },
    };
  return {
    message: `The agent needs input: ${describe(interrupt)}`,
    requestedSchema: { type: 'object', properties: { answer: { type: 'string', title: 'Answer' } }, required: ['answer'] },
    answer: (action, content) => (action === 'accept' ? content?.answer : undefined),
  };
}
