/**
 * Two middleware a user would write — personal data redacted before the model, an audit row per
 * tool call — beside a built-in one (prompt caching). Offline: the model is scripted.
 * Run: pnpm build && npx tsx examples/middleware/main.ts
 */
import { middlewareDemo } from './middleware-demo.js';

const { result, audit, shownToModel } = await middlewareDemo();
console.log(`status: ${result.status}; answer: ${result.output}`);
console.log('\n== what the model was shown (first request)');
console.log(shownToModel[0]);
console.log('\n== the audit trail');
for (const row of audit) console.log(`${row.agent} called ${row.tool} (${row.callId}): ${row.ok ? 'ok' : 'error'} in ${row.ms} ms`);
