import { createFileRoute } from '@tanstack/react-router';
import { AdminScreen } from '../features/admin/AdminScreen.tsx';

export const Route = createFileRoute('/admin')({
  component: AdminScreen,
});
