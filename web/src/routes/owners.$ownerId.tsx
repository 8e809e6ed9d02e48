import { createFileRoute } from '@tanstack/react-router';

/** [B10] A supplier's details by its link: the Suppliers screen (routes/owners.tsx) shows them over its list. */
export const Route = createFileRoute('/owners/$ownerId')({});
