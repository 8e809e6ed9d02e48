import { createFileRoute } from '@tanstack/react-router';

/** [B10] A horse's details by its link: the Horses screen (routes/horses.tsx) shows them over its list. */
export const Route = createFileRoute('/horses/$horseId')({});
