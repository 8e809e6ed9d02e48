import { yieldToBrowser } from '../../data/time-slices.ts';
import { warmForms } from '../../lib/warm-forms.ts';
import { zodFirst } from '../../lib/zod-first.ts';

/**
 * The horse dialog's module, for its first tap or its preload when the page is idle,
 * evaluated in steps, each in a task of its own: zod, the shared field schemas, the horse's
 * schema, the forms' library (react-hook-form with FormField), then the dialog. Evaluated
 * together they are one long task of a start on a phone (docs/web.md "Dialogs that open at
 * once"). The forms are warmed meanwhile (warm-forms.ts).
 */
export async function loadHorseDialog() {
  const warming = warmForms();
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
