import { createFileRoute, useNavigate, useParams } from '@tanstack/react-router';
import { SalesScreen } from '../features/sales/SalesScreen.tsx';

export const Route = createFileRoute('/sales')({
  component: SalesPage,
});

/** [B10] /sales/<id> opens that sale's details over the list; the Payments tab is /payments. */
function SalesPage() {
  const navigate = useNavigate();
  const { saleId } = useParams({ strict: false });
  const open = (id: string | null) =>
    void (id ? navigate({ to: '/sales/$saleId', params: { saleId: id } }) : navigate({ to: '/sales', replace: true }));
  return (
    <SalesScreen
      link={{ id: saleId ?? null, open }}
      tab="sales"
      onTab={(tab) => tab === 'payments' && void navigate({ to: '/payments' })}
    />
  );
}
