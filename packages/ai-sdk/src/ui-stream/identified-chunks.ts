import type { ReplanUIChunk } from './ui-data-parts.js';

/** A chunk and its id (the SSE `id:` line). */
export interface IdentifiedChunk {
  readonly id: string;
  readonly chunk: ReplanUIChunk;
}

const ids = new WeakMap<object, string>();

/**
 * The id of a chunk read from `toUIMessageStream` or `resumeUIMessageStream`: resume after it with
 * `resumeUIMessageStream({ …, after: id })`. The SSE responses send it as each event's `id:` line.
 */
export function uiChunkId(chunk: ReplanUIChunk): string | undefined {
  return ids.get(chunk);
}

/**
 * A stream of the chunks (ids kept aside, readable with `uiChunkId`). Cancelling it stops reading
 * only: `onCancel` decides what happens to the source (a run keeps running).
 */
export function chunkStream(
  source: AsyncGenerator<IdentifiedChunk>,
  onCancel: (source: AsyncGenerator<IdentifiedChunk>) => void,
): ReadableStream<ReplanUIChunk> {
  return new ReadableStream<ReplanUIChunk>({
    async pull(controller) {
      const next = await source.next();
      if (next.done) return controller.close();
      ids.set(next.value.chunk, next.value.id);
      controller.enqueue(next.value.chunk);
    },
    cancel() {
      onCancel(source);
    },
  });
}

/** The SSE body of a chunk stream: `id:` and `data:` lines, then `data: [DONE]`, as the AI SDK's transport reads it. */
export function toSSE(stream: ReadableStream<ReplanUIChunk>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return stream.pipeThrough(
    new TransformStream<ReplanUIChunk, Uint8Array>({
      transform(chunk, controller) {
        const id = ids.get(chunk);
        controller.enqueue(encoder.encode(`${id === undefined ? '' : `id: ${id}\n`}data: ${JSON.stringify(chunk)}\n\n`));
      },
      flush(controller) {
        controller.enqueue(encoder.encode('data: [DONE]\n\n'));
      },
    }),
  );
}
