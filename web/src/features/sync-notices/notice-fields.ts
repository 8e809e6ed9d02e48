import type { Collection } from '../../../../shared/index.ts';

const CONTACT = { firstName: 'First Name', lastName: 'Last Name', phone: 'Phone', email: 'Email' };
const LOOKUP = { name: 'Name', isActive: 'Status' };

/** Field labels as the forms and columns under features/ show them, so a notice names what the screen names. */
const LABELS: Record<Collection, Record<string, string>> = {
  horses: {
    name: 'Name',
    breedId: 'Breed',
    colorId: 'Color',
    genderId: 'Gender',
    statusId: 'Status',
    ownerId: 'Supplier',
    birthdate: 'Birth Date',
    ageYears: 'Age',
    priceUsd: 'Price',
    photoUrl: 'Photo',
    notes: 'Notes',
  },
  owners: { ...CONTACT, createdAt: 'Joined' },
  buyers: CONTACT,
  sales: {
    horseId: 'Horse',
    buyerId: 'Buyer',
    salePrice: 'Sale Price',
    downPayment: 'Down Payment',
    termsMonths: 'Payment Terms',
    interestApr: 'Interest APR',
    scheduleStartDate: 'Schedule Start Date',
    createdAt: 'Created',
  },
  payments: {
    saleId: 'Sale',
    amount: 'Amount',
    date: 'Date',
    method: 'Payment Method',
    memo: 'Memo',
    installmentId: 'Installment',
    createdAt: 'Created',
  },
  breeds: LOOKUP,
  colors: LOOKUP,
  genders: LOOKUP,
  statuses: LOOKUP,
  careEntries: {
    horseId: 'Horse',
    kind: 'Care',
    doneOn: 'Date Done',
    nextDueOn: 'Next Due',
    notes: 'Notes',
    recordedBy: 'Recorded By',
    recordedByName: 'Recorded By',
    createdAt: 'Created',
  },
  corrections: {
    kind: 'Correction',
    saleId: 'Sale',
    paymentId: 'Payment',
    amount: 'Amount',
    date: 'Date',
    method: 'Payment Method',
    reason: 'Reason',
    createdAt: 'Created',
  },
};

/** The screen's label of a field, or undefined for one no screen shows (a field the record may not have). */
export function fieldLabel(collection: Collection, field: string): string | undefined {
  return Object.hasOwn(LABELS[collection], field) ? LABELS[collection][field] : undefined;
}
