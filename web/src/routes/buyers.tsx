import { createFileRoute, useNavigate, useParams } from '@tanstack/react-router';
import { BuyersScreen } from '../features/buyers/BuyersScreen.tsx';

export const Route = createFileRoute('/buyers')({
  component: BuyersPage,
});

/** [B10] /buyers/<id> opens that buyer's details over the list. */
function BuyersPage() {
  const navigate = useNavigate();
  const { buyerId } = useParams({ strict: false });
  const open = (id: string | null) =>
    void (id ? navigate({ to: '/buyers/$buyerId', params: { buyerId: id } }) : navigate({ to: '/buyers', replace: true }));
  return <BuyersScreen link={{ id: buyerId ?? null, open }} />;
}
