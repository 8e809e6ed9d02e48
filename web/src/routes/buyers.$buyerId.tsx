import { createFileRoute } from '@tanstack/react-router';

/** [B10] A buyer's details by its link: the Buyers screen (routes/buyers.tsx) shows them over its list. */
export const Route = createFileRoute('/buyers/$buyerId')({});
