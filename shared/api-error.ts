/** One field's problem in a refused request: `path` names the field (`breedId`, `items.0.amount`). */
export type ErrorIssue = { path: string; message: string };

/**
 * The one JSON error body of the REST API, what the server sends with every non-2xx answer
 * and what the app reads back: a message a person can read, and the fields at fault when
 * the request's input was refused.
 */
export type ErrorBody = { message: string; issues?: ErrorIssue[] };

const isIssue = (value: unknown): value is ErrorIssue =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as ErrorIssue).path === 'string' &&
  typeof (value as ErrorIssue).message === 'string';

/** The error body in a response's text; null when the text is not one (an empty body, a proxy's page). */
export function parseErrorBody(text: string): ErrorBody | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null || typeof (value as ErrorBody).message !== 'string') return null;
  const { message, issues } = value as { message: string; issues?: unknown };
  return Array.isArray(issues) ? { message, issues: issues.filter(isIssue) } : { message };
}
