// Apart from schemas/care.ts (which re-exports them) because that one builds zod schemas
// when loaded, and the page's screens need only the names (docs/web.md "A small entry").

/** [K1] What a care entry records, in the order the form offers them. */
export const CARE_KINDS = ['vaccination', 'coggins', 'farrier', 'deworming', 'vet', 'dental', 'other'] as const;
export type CareKind = (typeof CARE_KINDS)[number];

export const CARE_KIND_LABELS: Record<CareKind, string> = {
  vaccination: 'Vaccination',
  coggins: 'Coggins test',
  farrier: 'Farrier',
  deworming: 'Deworming',
  vet: 'Vet visit',
  dental: 'Dental',
  other: 'Other',
};
