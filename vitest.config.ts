import { defineConfig } from 'vitest/config';
import projects, { maxWorkers } from './vitest.workspace.js';

// Vitest 4 does not load vitest.workspace.ts by itself: the projects defined there are read here.
export default defineConfig({ test: { projects, maxWorkers } });
