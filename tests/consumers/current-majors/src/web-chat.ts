// examples/web-chat served by this app on today's majors: the consumers test copies the example's
// server.ts, page.ts and trip-agent.ts into src/web-chat/, TypeScript 7 checks them with the rest, and
// the server bundles the compiled page with this app's AI SDK 7 (its `Chat` client) for the browser.
import { FileSessionStore } from '@replan/core';
import { startWebChat } from './web-chat/server.js';

const dir = process.env.WEB_CHAT_STORE;
if (!dir) throw new Error('set WEB_CHAT_STORE (the directory for the chat sessions)');

// The search is quick here: nothing reloads mid-run in this test.
const app = await startWebChat({ store: new FileSessionStore({ dir }), searchMs: 100 });
console.log(JSON.stringify({ url: app.url, node: process.version }));
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
