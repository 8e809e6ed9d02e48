import { createFileRoute } from '@tanstack/react-router';
import { DashboardScreen } from '../features/dashboard/DashboardScreen.tsx';

export const Route = createFileRoute('/')({
  component: DashboardScreen,
});
