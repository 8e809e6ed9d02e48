import { createFileRoute } from '@tanstack/react-router';

/** [B10] A sale's details by its link: the Sales screen (routes/sales.tsx) shows them over its list. */
export const Route = createFileRoute('/sales/$saleId')({});
