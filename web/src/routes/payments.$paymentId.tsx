import { createFileRoute } from '@tanstack/react-router';

/** [B10] A payment's receipt by its link: the Payments tab (routes/payments.tsx) shows it over its list. */
export const Route = createFileRoute('/payments/$paymentId')({});
