/**
 * The one HTTP client of the PWA ([X1], [X3]): session credentials on every call, JSON
 * bodies with a JSON content type, and any non-OK answer raised as an ApiError whose
 * message is `${status}: ${body text || status text}`, with the server's error body (shared
 * ErrorBody: message and field issues) when it sent one.
 */
import { parseErrorBody, type ErrorBody, type ErrorIssue } from '../../../shared/index.ts';

export class ApiError extends Error {
  readonly status: number;
  /** The server's `{ message, issues? }`; null when the answer was not one (a proxy's page). */
  readonly body: ErrorBody | null;

  constructor(status: number, message: string, body: ErrorBody | null = null) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
  }

  /** The fields the server refused, for a form to show beside them. */
  get issues(): ErrorIssue[] {
    return this.body?.issues ?? [];
  }
}

/** [X3], [A7]: a 401 from any call means the session is gone. */
export function isUnauthorized(error: unknown): boolean {
  return error instanceof ApiError && error.status === 401;
}

/** fetch rejects (instead of answering) only when the request never reached a server. */
export function isNetworkError(error: unknown): boolean {
  return error instanceof TypeError;
}

async function throwIfNotOk(response: Response): Promise<void> {
  if (response.ok) return;
  const text = await response.text().catch(() => '');
  throw new ApiError(response.status, `${response.status}: ${text || response.statusText}`, parseErrorBody(text));
}

export async function apiRequest(method: string, url: string, body?: unknown): Promise<Response> {
  const init: RequestInit = { method, credentials: 'include' };
  if (body !== undefined) {
    init.headers = { 'Content-Type': 'application/json' };
    init.body = JSON.stringify(body);
  }
  const response = await fetch(url, init);
  await throwIfNotOk(response);
  return response;
}

export type On401 = 'throw' | 'returnNull';

/** A read: GET the path and parse JSON; with `on401: 'returnNull'` a 401 yields null. */
export async function getJson<T>(url: string, on401: On401 = 'throw'): Promise<T | null> {
  const response = await fetch(url, { credentials: 'include' });
  if (on401 === 'returnNull' && response.status === 401) return null;
  await throwIfNotOk(response);
  return (await response.json()) as T;
}
