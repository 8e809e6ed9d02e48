/** A stored ISO timestamp or date as a date in the viewer's locale; 'N/A' when absent or malformed. */
export function localDate(value: string | null | undefined, locale?: string): string {
  if (!value) return 'N/A';
  // A bare calendar date ("2024-05-01") is that day wherever the viewer is.
  const date = /^\d{4}-\d{2}-\d{2}$/.test(value) ? new Date(`${value}T12:00:00`) : new Date(value);
  return Number.isNaN(date.getTime()) ? 'N/A' : date.toLocaleDateString(locale);
}
