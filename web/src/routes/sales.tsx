import { createFileRoute } from '@tanstack/react-router';
import { SalesScreen } from '../features/sales/SalesScreen.tsx';

export const Route = createFileRoute('/sales')({
  component: SalesScreen,
});
