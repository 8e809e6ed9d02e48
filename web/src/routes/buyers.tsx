import { createFileRoute } from '@tanstack/react-router';
import { BuyersScreen } from '../features/buyers/BuyersScreen.tsx';

export const Route = createFileRoute('/buyers')({
  component: BuyersScreen,
});
