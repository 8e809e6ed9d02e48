import * as Y from 'yjs';
import { collectionMap, isPastOrToday, isPhotoReference } from '../../../shared/index.ts';
import { migrateStrictMoney } from './money-migration.ts';

/**
 * What a document stored under older rules needs before the current rules can judge it,
 * keyed by the rules version that brought the change. Each runs once per document (and again
 * after a restore, which has the document checked whole: so each must leave a document it
 * already migrated as it is), inside
 * the load check's transaction (document-host.ts `checkUnderCurrentRules`), before the
 * compensation planner: a value the new rule refuses but that was valid when written is
 * cleared, rather than the whole record being judged invalid.
 */
const MIGRATIONS: Record<number, (doc: Y.Doc) => void> = {
  // [I6]: a horse's photo is one of this ranch's; another address (or `/api/logout`) is cleared.
  2: (doc) => {
    for (const horse of collectionMap(doc, 'horses').values()) {
      if (!(horse instanceof Y.Map)) continue;
      const photo = horse.get('photoUrl');
      if (typeof photo === 'string' && photo.trim() !== '' && !isPhotoReference(photo.trim())) horse.set('photoUrl', null);
    }
  },
  // [S14]: amounts are read strictly; one the earlier rules cut or stripped keeps the amount they read.
  3: migrateStrictMoney,
  // [H10]: a birth date after today is cleared (the history keeps it); the age entered stays.
  4: (doc) => {
    for (const horse of collectionMap(doc, 'horses').values()) {
      if (!(horse instanceof Y.Map)) continue;
      const birthdate = horse.get('birthdate');
      if (typeof birthdate === 'string' && /^\d{4}-\d{2}-\d{2}/.test(birthdate) && !isPastOrToday(birthdate)) horse.set('birthdate', null);
    }
  },
};

/** Runs the migrations of every rules version after `checkedRules`, up to `current`. */
export function migrateRules(doc: Y.Doc, checkedRules: number, current: number): void {
  for (let version = checkedRules + 1; version <= current; version++) MIGRATIONS[version]?.(doc);
}
