/**
 * A long plan step that fits a 24k-token window (compaction), and a 400 KB tool result searched
 * instead of shown (offloading). Offline: the models are scripted.
 * Run: pnpm build && npx tsx examples/long-step/main.ts
 */
import { SOURCES, WINDOW, bigResult, longStep } from './long-step.js';

const step = await longStep();
console.log(`== one step, ${SOURCES} sources of ~6 KB, window ${WINDOW} tokens: ${step.status}`);
console.log(`  without compaction the last request would be ~${step.uncompactedEstimate} tokens`);
console.log(`  compactions:     ${step.compactions} (summarizer calls: ${step.summarizerCalls})`);
console.log(`  largest request: ${step.largestRequest} tokens (as the model reported them)`);
console.log(`  answer keeps ${step.factsInAnswer} of ${SOURCES} facts`);

const offload = await bigResult();
console.log(`\n== a ${Math.round(offload.resultChars / 1000)} KB tool result, offloadToolResults({ maxTokens: 1000 })`);
console.log(`  shown to the model: ${offload.shownChars} characters (head, tail and a note)`);
console.log(`  search_tool_result: ${offload.searchHits} match`);
console.log(`  answer: ${offload.answer}`);
