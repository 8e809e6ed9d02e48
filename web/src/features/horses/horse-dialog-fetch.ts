// Nothing to run. Importing this module fetches every chunk of the horse dialog's static graph
// (the dialog, the form's library, the horse's schema, zod …) and evaluates none of them:
// vite.config.ts (HORSE_DIALOG_FETCH) gives its import a preload link for each. The dialog's
// loader (load-horse-dialog.ts) asks for it first, so its steps find their code in memory or
// on its way instead of each step's imports being asked for only after the step before.
export const HORSE_DIALOG_FETCHED = true;
