import type { AnySuite } from '../suite.js';
import { researchSuite } from './research.js';
import { retailSuite } from './retail.js';
import { travelSuite } from './travel.js';

export { researchSuite, retailSuite, travelSuite };

/** The built-in suites by name. */
export const builtinSuites: Readonly<Record<'travel' | 'retail' | 'research', AnySuite>> = {
  travel: travelSuite,
  retail: retailSuite,
  research: researchSuite,
};
