/**
 * [B8] A horse status's colour, from its name: the ranch renames and adds statuses in
 * Administration, and a status has no colour of its own, so the name says what it means.
 * Known words get the colour of their meaning; any other name gets one of the spare tones,
 * always the same for the same name, so two such statuses most likely differ.
 */
export type Tone = 'success' | 'info' | 'warning' | 'error' | 'neutral' | 'quiet' | 'primary' | 'secondary' | 'accent';

const MEANINGS: [RegExp, Tone][] = [
  [/^(available|for sale|ready)$/, 'success'],
  [/^(in training|training|breaking|started|starting)$/, 'info'],
  [/^(reserved|pending|on hold|under offer|deposit taken)$/, 'warning'],
  [/^(injured|lame|sick|quarantine|rehab|vet care)$/, 'error'],
  [/^sold$/, 'neutral'],
  [/^(retired|deceased|inactive|not for sale|no status)$/, 'quiet'],
];

/** The tones no known word takes: a custom status gets one of these. */
const SPARE: Tone[] = ['primary', 'secondary', 'accent'];

export function statusTone(name: string): Tone {
  const key = name.trim().toLowerCase().replace(/\s+/g, ' ');
  for (const [words, tone] of MEANINGS) if (words.test(key)) return tone;
  let hash = 0;
  for (const char of key) hash = (hash * 31 + char.codePointAt(0)!) >>> 0;
  return SPARE[hash % SPARE.length]!;
}

/** Full class names, so Tailwind finds each in the source. Solid fills: each pair is AA (theme-contrast.test.ts). */
const BADGE: Record<Tone, string> = {
  success: 'badge-success',
  info: 'badge-info',
  warning: 'badge-warning',
  error: 'badge-error',
  neutral: 'badge-neutral',
  quiet: 'badge-ghost',
  primary: 'badge-primary',
  secondary: 'badge-secondary',
  accent: 'badge-accent',
};

const BAR: Record<Tone, string> = {
  success: 'progress-success',
  info: 'progress-info',
  warning: 'progress-warning',
  error: 'progress-error',
  neutral: 'progress-neutral',
  quiet: 'text-base-content/40',
  primary: 'progress-primary',
  secondary: 'progress-secondary',
  accent: 'progress-accent',
};

const DOT: Record<Tone, string> = {
  success: 'bg-success',
  info: 'bg-info',
  warning: 'bg-warning',
  error: 'bg-error',
  neutral: 'bg-neutral',
  quiet: 'bg-base-content/30',
  primary: 'bg-primary',
  secondary: 'bg-secondary',
  accent: 'bg-accent',
};

export const statusBadgeClass = (name: string) => `badge whitespace-nowrap ${BADGE[statusTone(name)]}`;
export const statusBarClass = (name: string) => BAR[statusTone(name)];
export const statusDotClass = (name: string) => DOT[statusTone(name)];
