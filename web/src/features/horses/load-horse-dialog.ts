import { yieldToBrowser } from '../../data/time-slices.ts';
import { warmForms } from '../../lib/warm-forms.ts';
import { zodFirst } from '../../lib/zod-first.ts';

/**
 * The horse dialog's module, for its first tap or its preload when the page is idle: every
 * chunk of its graph is requested at once (horse-dialog-fetch.ts), then evaluated in steps,
 * each in a task of its own: zod, the shared field schemas, the horse's schema, the forms'
 * library (react-hook-form with FormField), then the dialog. Evaluated together they are
 * one long task of a start on a phone; in steps whose imports were asked for one after the
 * other, the dialog would open later (docs/web.md "Dialogs that open at once"). The forms are warmed meanwhile (warm-forms.ts).
 */
export async function loadHorseDialog() {
  const warming = warmForms();
  // Its links are appended as it is called; a failure leaves each step to fetch its own.
  void import('./horse-dialog-fetch.ts').catch(() => {});
  await zodFirst();
  await import('../../../../shared/schemas/common.ts');
  await yieldToBrowser();
  await import('../../../../shared/schemas/horse.ts');
  await yieldToBrowser();
  await import('../../ui/FormField.tsx');
  await yieldToBrowser();
  const { HorseDialog } = await import('./HorseDialog.tsx');
  await warming;
  return HorseDialog;
}
