import { createFileRoute } from '@tanstack/react-router';
import { ActivityScreen } from '../features/history/ActivityScreen.tsx';

/** [T7]: the ranch's activity, opened by the Dashboard's 'View All'. */
export const Route = createFileRoute('/activity')({
  component: ActivityScreen,
});
