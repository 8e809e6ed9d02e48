import type { Role } from './constants.ts';

/** What names a person: their account's names and role. */
export type NamedPerson = { firstName: string | null; lastName: string | null; role: Role };

/**
 * [T1] [K1] How a person is named to everyone else (care records, history, conflicts): their
 * first and last name, else their role. Never their e-mail, which only Admins see (N13).
 */
export function publicName(person: NamedPerson): string {
  const full = [person.firstName, person.lastName]
    .map((part) => part?.trim())
    .filter(Boolean)
    .join(' ');
  return full || person.role;
}
