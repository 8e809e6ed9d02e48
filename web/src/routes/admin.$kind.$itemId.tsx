import { createFileRoute } from '@tanstack/react-router';

/** [B10] A lookup item's dialog by its link: Administration (routes/admin.tsx) shows it over the item's tab. */
export const Route = createFileRoute('/admin/$kind/$itemId')({});
