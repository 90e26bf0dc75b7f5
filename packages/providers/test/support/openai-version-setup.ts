import { OpenAIChatModel } from '@replan/providers';
import OpenAI from 'openai';
import { VERSION } from 'openai/version';

// The run must prove which openai the sources under test use: another version, or a client that is not
// this openai's, fails every file.
const expected = process.env.REPLAN_OPENAI_MAJOR;
if (expected && !VERSION.startsWith(`${expected}.`)) {
  throw new Error(`Expected openai ${expected}.x from REPLAN_OPENAI_DIR, but the tests loaded openai ${VERSION}.`);
}
if (!(new OpenAIChatModel({ model: 'm', apiKey: 'k', baseURL: 'http://127.0.0.1:9/v1' }).client instanceof OpenAI)) {
  throw new Error(`@replan/providers created its client from another openai than ${VERSION} (REPLAN_OPENAI_DIR).`);
}
console.log(`[providers-on-openai] openai ${VERSION} on Node ${process.version}`);
