import { yieldToBrowser } from '../data/time-slices.ts';

let warmed: Promise<void> | undefined;

/**
 * Loads the page's locale data in three tasks, once per page: ICU's data through an
 * `Intl.NumberFormat`, its date formats through an `Intl.DateTimeFormat`, then Blink's date
 * field through an `<input type="date">` that is never shown. A renderer pays for them on the
 * first locale-sensitive thing it does; the horse form's date field did it inside the form's
 * first render: 314 ms of React's `initInput` in one task on the phone bench (CPU 4×) when
 * the app was started anew, and 230–260 ms for a date input on a blank page in a new
 * renderer, against ~20 ms the second time. In three steps it was 170–230, 20–40 and 90–190
 * ms there (docs/performance.md "Starts anew in the phone rows"). A renderer that has done
 * this before (a reload) pays ~20 ms in all. The first step waits a task too, so a tap that
 * asks for it is answered first.
 */
export function warmLocale(): Promise<void> {
  warmed ??= (async () => {
    await yieldToBrowser();
    new Intl.NumberFormat().format(1);
    await yieldToBrowser();
    new Intl.DateTimeFormat().format(0);
    await yieldToBrowser();
    document.createElement('input').type = 'date';
  })().catch(() => {}); // Only a head start: a failure here never holds a form back.
  return warmed;
}

/** `loading` (a form's or dialog's module), resolved once the locale is warmed too: both go on at once. */
export function withWarmLocale<T>(loading: Promise<T>): Promise<T> {
  return Promise.all([loading, warmLocale()]).then(([loaded]) => loaded);
}
