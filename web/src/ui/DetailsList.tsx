import type { ReactNode } from 'react';

/** A record's details: each field's name and value, in two columns (a description list). */
export function DetailsList({ rows }: { rows: readonly (readonly [string, ReactNode])[] }) {
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2">
      {rows.map(([term, value]) => (
        <div key={term} className="contents">
          <dt className="text-base-content/60">{term}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** A record's notes under its details, as typed (line breaks kept); nothing without notes. */
export function DetailsNotes({ notes }: { notes: string | null | undefined }) {
  if (!notes) return null;
  return (
    <div>
      <h3 className="font-semibold">Notes</h3>
      <p className="whitespace-pre-wrap">{notes}</p>
    </div>
  );
}
