import type { z } from 'zod';

export type FieldIssue = { path: string; message: string };

/** Raised by a repository when input breaks the shared schema; no change is made. */
export class ValidationError extends Error {
  readonly issues: FieldIssue[];

  constructor(issues: FieldIssue[]) {
    super(issues.map((issue) => issue.message).join(', '));
    this.name = 'ValidationError';
    this.issues = issues;
  }
}

export function validate<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw new ValidationError(result.error.issues.map((issue) => ({ path: issue.path.map(String).join('.'), message: issue.message })));
}
