import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { contactInput, type ContactFields, type ContactInput } from '../../../../shared/index.ts';
import { FormActions, FormField, invalidProps } from '../../ui/FormField.tsx';

export type ContactFormValues = { firstName: string; lastName: string; phone: string; email: string };

export const EMPTY_CONTACT: ContactFormValues = { firstName: '', lastName: '', phone: '', email: '' };

/** A stored contact as form values (null phone or e-mail shows as an empty field). */
export function contactValues(contact: {
  firstName: string;
  lastName: string;
  phone: string | null;
  email: string | null;
}): ContactFormValues {
  return { firstName: contact.firstName, lastName: contact.lastName, phone: contact.phone ?? '', email: contact.email ?? '' };
}

type ContactFormProps = {
  defaultValues?: ContactFormValues;
  /**
   * [C7]: the buyer form shows no required marks and reads '(Optional)' on phone and
   * e-mail; the supplier form marks first and last name as required.
   */
  labelStyle: 'supplier' | 'buyer';
  submitLabel: string;
  onSubmit: (values: ContactFields) => void;
  onCancel: () => void;
};

/** Suppliers and buyers share one form and one schema (shared contactInput). */
export function ContactForm({ defaultValues = EMPTY_CONTACT, labelStyle, submitLabel, onSubmit, onCancel }: ContactFormProps) {
  const id = useId();
  const f = (name: keyof ContactFormValues) => `${id}-${name}`;
  const {
    register,
    control,
    handleSubmit,
    formState: { errors },
  } = useForm<ContactInput, unknown, ContactFields>({ resolver: zodResolver(contactInput), defaultValues });
  const supplier = labelStyle === 'supplier';

  return (
    <form noValidate onSubmit={handleSubmit(onSubmit)}>
      <div className="grid grid-cols-1 gap-x-4 gap-y-2 sm:grid-cols-2">
        <FormField label="First Name" htmlFor={f('firstName')} error={errors.firstName} required={supplier}>
          <input
            id={f('firstName')}
            className="input w-full"
            autoComplete="given-name"
            {...register('firstName')}
            {...invalidProps(errors.firstName, f('firstName'))}
          />
        </FormField>
        <FormField label="Last Name" htmlFor={f('lastName')} error={errors.lastName} required={supplier}>
          <input
            id={f('lastName')}
            className="input w-full"
            autoComplete="family-name"
            {...register('lastName')}
            {...invalidProps(errors.lastName, f('lastName'))}
          />
        </FormField>
        <FormField label={supplier ? 'Phone' : 'Phone (Optional)'} htmlFor={f('phone')} error={errors.phone}>
          <input
            id={f('phone')}
            type="tel"
            className="input w-full"
            autoComplete="tel"
            {...register('phone')}
            {...invalidProps(errors.phone, f('phone'))}
          />
        </FormField>
        <FormField label={supplier ? 'Email' : 'Email (Optional)'} htmlFor={f('email')} error={errors.email}>
          <input
            id={f('email')}
            type="email"
            className="input w-full"
            autoComplete="email"
            {...register('email')}
            {...invalidProps(errors.email, f('email'))}
          />
        </FormField>
      </div>
      <FormActions submitLabel={submitLabel} control={control} onCancel={onCancel} />
    </form>
  );
}
