import type { CareEntry } from '../../../../shared/index.ts';
import type { RanchWrites } from '../../data/ranch-writes.ts';

/**
 * [B12] Care entries written again after a delete is undone, as new entries: each with its
 * fields and whoever recorded it then, for `horseId` (the horse written again, when it went
 * too) or its own horse.
 */
export async function restoreCareEntries(writes: RanchWrites, entries: readonly CareEntry[], horseId?: string): Promise<void> {
  for (const entry of entries) {
    const { kind, doneOn, nextDueOn, notes, recordedBy, recordedByName } = entry;
    await writes.careEntries.create(
      { horseIds: [horseId ?? entry.horseId], kind, doneOn, nextDueOn, notes },
      { userId: recordedBy, name: recordedByName },
    );
  }
}
