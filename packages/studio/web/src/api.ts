/** The studio's JSON API, with the per-start token sent as a header on every call. */
const TOKEN_HEADER = 'x-replan-token';
const TOKEN_KEY = 'replan-studio-token';

/** Takes the token from the URL the studio printed, keeps it for this tab, and removes it from the address bar. */
export function takeToken(): string {
  const url = new URL(location.href);
  const fromUrl = url.searchParams.get('token');
  if (fromUrl) {
    sessionStorage.setItem(TOKEN_KEY, fromUrl);
    url.searchParams.delete('token');
    history.replaceState(null, '', url.pathname + url.search + url.hash);
    return fromUrl;
  }
  return sessionStorage.getItem(TOKEN_KEY) ?? '';
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export class Api {
  constructor(private readonly token: string) {}

  async get<T>(route: string, params: Record<string, string | number | undefined> = {}): Promise<T> {
    const query = new URLSearchParams();
    for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') query.set(k, String(v));
    const response = await fetch(`/api/${route}?${query}`, { headers: { [TOKEN_HEADER]: this.token } });
    return this.read<T>(response);
  }

  async post<T>(route: string, body: unknown): Promise<T> {
    const response = await fetch(`/api/${route}`, {
      method: 'POST',
      headers: { [TOKEN_HEADER]: this.token, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    return this.read<T>(response);
  }

  /** The bytes of a blob of the session `params` names (`/api/blobs/<id>`, token in the header). */
  async blob(id: string, params: Record<string, string>): Promise<Blob> {
    const response = await fetch(`/api/blobs/${encodeURIComponent(id)}?${new URLSearchParams(params)}`, {
      headers: { [TOKEN_HEADER]: this.token },
    });
    if (!response.ok) await this.read(response);
    return response.blob();
  }

  private async read<T>(response: Response): Promise<T> {
    const body = (await response.json().catch(() => ({}))) as { message?: string };
    if (!response.ok) throw new ApiError(response.status, body.message ?? `HTTP ${response.status}`);
    return body as T;
  }

  /**
   * Follows a session's changes (server-sent events read with fetch, so the token stays a header).
   * Returns a function that stops following.
   */
  follow(params: Record<string, string>, onVersion: (version: number) => void): () => void {
    const controller = new AbortController();
    const run = async () => {
      while (!controller.signal.aborted) {
        try {
          const response = await fetch(`/api/live?${new URLSearchParams(params)}`, {
            headers: { [TOKEN_HEADER]: this.token },
            signal: controller.signal,
          });
          if (!response.ok || !response.body) throw new Error(`live: HTTP ${response.status}`);
          const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
          let buffer = '';
          for (;;) {
            const { value, done } = await reader.read();
            if (done) break;
            buffer += value;
            let end = buffer.indexOf('\n\n');
            while (end >= 0) {
              const frame = buffer.slice(0, end);
              buffer = buffer.slice(end + 2);
              const data = frame.split('\n').find((l) => l.startsWith('data: '));
              if (data) onVersion((JSON.parse(data.slice(6)) as { version: number }).version);
              end = buffer.indexOf('\n\n');
            }
          }
        } catch {
          // dropped (server restarted, laptop slept): try again shortly
        }
        if (!controller.signal.aborted) await new Promise((r) => setTimeout(r, 1000));
      }
    };
    void run();
    return () => controller.abort();
  }
}
