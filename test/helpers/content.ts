import { loadContent } from '../../src/content/load-content.ts';

/** The shipped content, read and checked once per test file, as the service reads it once at start-up. */
export const shipped = loadContent();
