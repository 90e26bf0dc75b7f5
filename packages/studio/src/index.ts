export { serveStudio } from './serve-studio.js';
export type { StudioOptions, StudioHandle } from './serve-studio.js';
export { StudioError } from './errors.js';
