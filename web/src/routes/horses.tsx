import { createFileRoute } from '@tanstack/react-router';
import { HorsesScreen } from '../features/horses/HorsesScreen.tsx';

export const Route = createFileRoute('/horses')({
  component: HorsesScreen,
});
