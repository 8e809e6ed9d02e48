/** Business constants ([R1], [P3], [S6], [I1]), shared by the PWA and the sync server. */

export const ROLES = ['Admin', 'Staff', 'Viewer'] as const;
export type Role = (typeof ROLES)[number];
/** [R2]: a missing role displays as Staff. */
export const DEFAULT_ROLE: Role = 'Staff';

export const PAYMENT_METHODS = ['Cash', 'Card', 'ACH', 'Check', 'Other'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
export const PAYMENT_METHOD_LABELS: Record<PaymentMethod, string> = {
  Cash: 'Cash',
  Card: 'Credit/Debit Card',
  ACH: 'ACH Transfer',
  Check: 'Check',
  Other: 'Other',
};

export const PAYMENT_TERMS = [0, 3, 6, 12] as const;
export type PaymentTerms = (typeof PAYMENT_TERMS)[number];

export const MAX_PHOTO_BYTES = 10_485_760;

/** Upper bounds the seed leaves open; chosen so no field can bloat the shared document. */
export const MAX_NAME_LENGTH = 120;
export const MAX_NOTES_LENGTH = 5000;
export const MAX_MEMO_LENGTH = 500;
