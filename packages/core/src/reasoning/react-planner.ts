import type { Message } from '../messages/message.js';
import type { ModelSettings, ToolSpec } from '../models/chat-model.js';

/**
 * Shapes how a `ReActAgent` thinks: extra instruction, model settings for native thinking, and a
 * rewrite of each model answer (e.g. tagged text into reasoning blocks). Must not mutate inputs.
 */
export interface ReActPlanner {
  instruction?(tools: readonly ToolSpec[]): string | undefined;
  settings?(settings: ModelSettings | undefined): ModelSettings | undefined;
  processResponse?(message: Message): Message;
}
