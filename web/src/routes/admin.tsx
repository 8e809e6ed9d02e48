import { createFileRoute, useNavigate, useParams } from '@tanstack/react-router';
import { AdminScreen } from '../features/admin/AdminScreen.tsx';

export const Route = createFileRoute('/admin')({
  component: AdminPage,
});

/** [B10] /admin/<kind>/<id> opens that lookup item's dialog over its tab. */
function AdminPage() {
  const navigate = useNavigate();
  const { kind, itemId } = useParams({ strict: false });
  const open = (chosen: string, id: string | null) =>
    void (id ? navigate({ to: '/admin/$kind/$itemId', params: { kind: chosen, itemId: id } }) : navigate({ to: '/admin', replace: true }));
  return <AdminScreen link={{ kind: kind ?? null, id: itemId ?? null, open }} />;
}
