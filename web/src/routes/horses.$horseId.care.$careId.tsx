import { createFileRoute } from '@tanstack/react-router';

/** [K8] A care entry's details by its link: the Horses screen (routes/horses.tsx) shows them over its horse's. */
export const Route = createFileRoute('/horses/$horseId/care/$careId')({});
