import { createFileRoute } from '@tanstack/react-router';

/** [U20] A person's details by their link: the Users screen (routes/users.tsx) shows them over its list. */
export const Route = createFileRoute('/users/$userId')({});
