// Nothing to run. Importing this module fetches the staging code's chunks (zod's first step,
// the records' schemas, shown-before-load.ts and what they import) and evaluates none of them:
// vite.config.ts (STAGING_FETCH) gives its import a preload link for each. A tap on Add Horse
// or Edit asks for it (before-load.ts `fetch`), so once the form is on screen its
// steps find their code in memory instead of asking the service worker for each in turn.
export const STAGING_FETCHED = true;
