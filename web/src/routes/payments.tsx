import { createFileRoute, useNavigate, useParams } from '@tanstack/react-router';
import { SalesScreen } from '../features/sales/SalesScreen.tsx';

export const Route = createFileRoute('/payments')({
  component: PaymentsPage,
});

/** [B10] Sales & Payments on its Payments tab; /payments/<id> opens that payment's receipt over the list. */
function PaymentsPage() {
  const navigate = useNavigate();
  const { paymentId } = useParams({ strict: false });
  const open = (id: string | null) =>
    void (id ? navigate({ to: '/payments/$paymentId', params: { paymentId: id } }) : navigate({ to: '/payments', replace: true }));
  return (
    <SalesScreen
      payment={{ id: paymentId ?? null, open }}
      tab="payments"
      onTab={(tab) => tab === 'sales' && void navigate({ to: '/sales' })}
    />
  );
}
