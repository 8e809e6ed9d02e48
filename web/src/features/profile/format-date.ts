/** A timestamp as a date in the viewer's locale, or 'N/A' when absent or unreadable (SPEC §2). */
export function localDate(iso: string | null | undefined, locale?: string): string {
  if (!iso) return 'N/A';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? 'N/A' : date.toLocaleDateString(locale);
}
