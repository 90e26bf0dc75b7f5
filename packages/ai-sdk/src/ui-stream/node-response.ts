import type { ServerResponse } from 'node:http';

/**
 * Writes a web `Response` (e.g. from `createUIMessageStreamResponse`) to a `node:http`
 * `ServerResponse`: status, headers, then the body as it streams. When the client goes away the
 * body is cancelled (a replan run goes on and stores its events). Resolves when the response ended.
 */
export async function writeUIStreamResponse(response: Response, res: ServerResponse): Promise<void> {
  res.writeHead(response.status, Object.fromEntries(response.headers));
  if (!response.body) {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  const gone = () => void reader.cancel().catch(() => undefined);
  res.once('close', gone);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (res.destroyed) break;
      res.write(value);
    }
  } catch {
    // The body was cancelled because the client left: nothing more to write.
  } finally {
    res.off('close', gone);
    if (!res.destroyed) res.end();
  }
}
