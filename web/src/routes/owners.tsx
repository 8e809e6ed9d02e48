import { createFileRoute } from '@tanstack/react-router';
import { SuppliersScreen } from '../features/suppliers/SuppliersScreen.tsx';

/** [G2]: the Suppliers screen keeps the route name /owners. */
export const Route = createFileRoute('/owners')({
  component: SuppliersScreen,
});
