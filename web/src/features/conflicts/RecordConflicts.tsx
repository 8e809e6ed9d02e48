import { useState } from 'react';
import type { Collection } from '../../../../shared/index.ts';
import type { ConflictRow } from '../../data/db.ts';
import { markAnswered } from '../../data/conflict-cache.ts';
import { useRanchData } from '../../data/context.tsx';
import { useToast } from '../../ui/Toast.tsx';
import { useCanWrite } from '../auth/use-can-write.ts';
import { fieldLabel, type ReferenceNames } from '../history/history-text.ts';
import { useReferenceNamesRead } from '../history/use-history.ts';
import { answerConflict, canAnswer } from './answer-conflict.ts';
import { conflictChoices, conflictHeadline } from './conflict-text.ts';
import { useOpenConflicts } from './use-conflicts.ts';

/** [T6] The accessible name of one conflict's banner: "Price changed at the same time". */
export const conflictRegionName = (collection: Collection, field: string) => `${fieldLabel(collection, field)} changed at the same time`;

/**
 * [T6] One banner per open conflict of the record: who changed which field to what at the
 * same time and, for a person who may write, the buttons that settle it (a money field is
 * always a question). An answer is written at once, offline too, and hides the banner here.
 */
export function RecordConflicts({ collection, id, className = '' }: { collection: Collection; id: string; className?: string }) {
  const conflicts = useOpenConflicts(collection, id);
  const names = useReferenceNamesRead(
    conflicts?.map((conflict) => ({ collection, field: conflict.field, before: conflict.kept.value, after: conflict.other.value })),
  );
  if (!conflicts?.length || !names) return null;
  return (
    <div className={`space-y-2 ${className}`}>
      {conflicts.map((conflict) => (
        <ConflictBanner key={conflict.id} conflict={conflict} names={names} />
      ))}
    </div>
  );
}

function ConflictBanner({ conflict, names }: { conflict: ConflictRow; names: ReferenceNames }) {
  const { db, writes } = useRanchData();
  const canWrite = useCanWrite() && canAnswer(conflict);
  const toast = useToast();
  const [saving, setSaving] = useState(false);
  const { prompt, viewerNote, choices } = conflictChoices(conflict, names);

  const choose = async (value: unknown) => {
    setSaving(true);
    try {
      await answerConflict(writes, conflict, value);
      await markAnswered(db, conflict.id);
    } catch (error) {
      console.error(error);
      toast({ title: 'Error', description: 'Failed to save your choice', variant: 'destructive' });
    } finally {
      setSaving(false);
    }
  };

  return (
    <section
      aria-label={conflictRegionName(conflict.collection, conflict.field)}
      className="alert alert-warning alert-vertical justify-items-start text-left"
    >
      <p>{conflictHeadline(conflict, names)}</p>
      <p className="font-medium">{prompt}</p>
      {canWrite ? (
        <div className="flex flex-wrap gap-2">
          {choices.map((choice) => (
            <button key={choice.label} type="button" className="btn btn-sm" disabled={saving} onClick={() => void choose(choice.value)}>
              {choice.label}
            </button>
          ))}
        </div>
      ) : (
        viewerNote && <p className="text-sm">{viewerNote}</p>
      )}
    </section>
  );
}
