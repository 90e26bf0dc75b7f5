import { readFile } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { fileURLToPath } from 'node:url';

// The page ships in the package: `static/` (HTML, CSS) and `dist/web/` (the compiled page script).
// Both paths hold from `dist/http/` (installed) and `src/http/` (tests run the sources).
const STATIC_DIR = fileURLToPath(new URL('../../static/', import.meta.url));
const WEB_DIR = fileURLToPath(new URL('../../dist/web/', import.meta.url));

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.svg': 'image/svg+xml',
};

/** The page's files by URL path; nothing else on disk is reachable (names are fixed or matched strictly). */
function fileFor(pathname: string): string | undefined {
  if (pathname === '/' || pathname === '/index.html') return `${STATIC_DIR}index.html`;
  if (pathname === '/studio.css') return `${STATIC_DIR}studio.css`;
  if (pathname === '/favicon.svg') return `${STATIC_DIR}favicon.svg`;
  const script = /^\/app\/([a-z][a-z0-9-]*\.js)$/.exec(pathname);
  return script ? `${WEB_DIR}${script[1]}` : undefined;
}

/** Serves one of the page's files; false when the path is none of them. */
export async function serveStatic(pathname: string, response: ServerResponse): Promise<boolean> {
  const file = fileFor(pathname);
  if (!file) return false;
  let body: Buffer;
  try {
    body = await readFile(file);
  } catch {
    return false;
  }
  response.writeHead(200, {
    'Content-Type': TYPES[file.slice(file.lastIndexOf('.'))] ?? 'application/octet-stream',
    'Cache-Control': 'no-cache',
  });
  response.end(body);
  return true;
}
