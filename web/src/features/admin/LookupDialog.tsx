import { useId } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { lookupInput, type LookupItem, type LookupKind } from '../../../../shared/index.ts';
import { useRanchData } from '../../data/context.tsx';
import { FormField, invalidProps } from '../../ui/FormField.tsx';
import { RecordHistory } from '../history/RecordHistory.tsx';
import { RecordConflicts } from '../conflicts/RecordConflicts.tsx';
import { Modal, useDiscardGuard } from '../../ui/Modal.tsx';
import { useToast } from '../../ui/Toast.tsx';
import { lookupTexts } from './lookup-texts.ts';

const nameOnly = lookupInput.pick({ name: true });
type NameValues = { name: string };

type LookupDialogProps = {
  kind: LookupKind;
  open: boolean;
  editing: LookupItem | null;
  /** A Viewer's look at an item (its link, [B10]): its name, status and history, no form. */
  readOnly?: boolean;
  onClose: () => void;
};

/** 'Add New Breed' (etc.) or, for `editing`, 'Edit Breed': one name field, Cancel and Save. */
export function LookupDialog({ kind, open, editing, readOnly = false, onClose }: LookupDialogProps) {
  const texts = lookupTexts(kind);
  const title = !editing ? texts.addTitle : readOnly ? texts.viewTitle : texts.editTitle;
  return (
    <Modal open={open} title={title} onClose={onClose} size="sm" sheet>
      {editing && <RecordConflicts collection={kind} id={editing.id} className="mb-4" />}
      {editing && readOnly ? (
        <p className="text-lg font-semibold">
          {editing.name}{' '}
          <span className="text-base font-normal text-base-content/70">{editing.isActive !== false ? '(Active)' : '(Inactive)'}</span>
        </p>
      ) : (
        <LookupForm kind={kind} editing={editing} onDone={onClose} />
      )}
      {editing && (
        <div className="mt-6">
          <RecordHistory collection={kind} id={editing.id} />
        </div>
      )}
    </Modal>
  );
}

function LookupForm({ kind, editing, onDone }: { kind: LookupKind; editing: LookupItem | null; onDone: () => void }) {
  const { writes } = useRanchData();
  const toast = useToast();
  const texts = lookupTexts(kind);
  const id = useId();
  const {
    register,
    control,
    handleSubmit,
    reset,
    formState: { errors, isSubmitting, isDirty },
  } = useForm<NameValues>({ resolver: zodResolver(nameOnly), defaultValues: { name: editing?.name ?? '' } });
  const cancel = useDiscardGuard(isDirty, onDone);
  const name = useWatch({ control, name: 'name' });

  const save = async ({ name: value }: NameValues) => {
    try {
      if (editing) await writes.lookups.rename(kind, editing.id, { name: value });
      else await writes.lookups.create(kind, { name: value });
    } catch (error) {
      console.error(error);
      toast({ title: 'Error', description: editing ? texts.updateFailed : texts.createFailed, variant: 'destructive' });
      return;
    }
    // [L3]: creation also clears the name field.
    reset({ name: '' });
    onDone();
    toast({ title: 'Success', description: editing ? texts.updated : texts.created, variant: 'success' });
  };

  return (
    <form noValidate onSubmit={handleSubmit(save)}>
      <FormField label="Name" htmlFor={`${id}-name`} error={errors.name}>
        <input
          id={`${id}-name`}
          className="input w-full"
          placeholder={texts.placeholder}
          autoComplete="off"
          {...register('name')}
          {...invalidProps(errors.name, `${id}-name`)}
        />
      </FormField>
      <div className="modal-action">
        <button type="button" className="btn btn-ghost" onClick={cancel}>
          Cancel
        </button>
        {/* [L3]: disabled while the name is blank after trimming or while saving. */}
        <button type="submit" className="btn btn-primary" disabled={!name?.trim() || isSubmitting}>
          Save
        </button>
      </div>
    </form>
  );
}
