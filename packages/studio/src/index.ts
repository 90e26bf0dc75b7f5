export { serveStudio } from './serve-studio.js';
export type { StudioOptions, StudioHandle } from './serve-studio.js';
export { StudioConfigurationError, StudioRequestError, CliUsageError } from './errors.js';
