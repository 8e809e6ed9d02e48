import { createFileRoute, useNavigate, useParams } from '@tanstack/react-router';
import { SuppliersScreen } from '../features/suppliers/SuppliersScreen.tsx';

/** [G2]: the Suppliers screen keeps the route name /owners. */
export const Route = createFileRoute('/owners')({
  component: SuppliersPage,
});

/** [B10] /owners/<id> opens that supplier's details over the list. */
function SuppliersPage() {
  const navigate = useNavigate();
  const { ownerId } = useParams({ strict: false });
  const open = (id: string | null) =>
    void (id ? navigate({ to: '/owners/$ownerId', params: { ownerId: id } }) : navigate({ to: '/owners', replace: true }));
  return <SuppliersScreen link={{ id: ownerId ?? null, open }} />;
}
