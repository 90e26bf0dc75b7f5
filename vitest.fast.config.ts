import { defineConfig } from 'vitest/config';
import { fastProjects, maxWorkers } from './vitest.workspace.js';

// `pnpm test:fast`: the in-process projects only (no child processes, PostgreSQL, browser or installs).
export default defineConfig({ test: { projects: fastProjects, maxWorkers } });
