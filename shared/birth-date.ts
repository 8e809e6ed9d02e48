/**
 * [H10] Birth dates. A birth date after today is refused by the shared horse schema (form,
 * REST, the server's check of synced horses and the device's read alike). "Today" is the
 * latest calendar date anywhere on Earth at that moment (UTC+14): the device and the server
 * then never disagree about a date a person could have typed as today where they are, and
 * a date the check accepts stays accepted as time passes.
 */

/** The latest calendar date on Earth at `now` (YYYY-MM-DD). */
export function latestToday(now: Date = new Date()): string {
  return new Date(now.getTime() + 14 * 60 * 60 * 1000).toISOString().slice(0, 10);
}

/** Whether `birthdate` (YYYY-MM-DD) is not after today anywhere ([H10]). */
export function isPastOrToday(birthdate: string, now: Date = new Date()): boolean {
  return birthdate.slice(0, 10) <= latestToday(now);
}

/**
 * Whole years from `birthdate` (YYYY-MM-DD) to `today` (YYYY-MM-DD, the viewer's date);
 * null for no date or a date after `today`.
 */
export function yearsSince(birthdate: string | null, today: string): number | null {
  if (!birthdate) return null;
  const [year, month, day] = birthdate.split('-').map(Number);
  const [nowYear, nowMonth, nowDay] = today.split('-').map(Number);
  if (!year || !month || !day || !nowYear || !nowMonth || !nowDay) return null;
  let years = nowYear - year;
  if (nowMonth < month || (nowMonth === month && nowDay < day)) years -= 1;
  return years >= 0 ? years : null;
}

/**
 * [H3] [H10] A horse's age in whole years on `today`: the birth date's, when there is one
 * (the age then follows it, whatever age was also stored), else the age entered.
 */
export function horseAge(horse: { birthdate: string | null; ageYears: number | null }, today: string): number | null {
  if (horse.birthdate) return yearsSince(horse.birthdate, today);
  return horse.ageYears;
}
