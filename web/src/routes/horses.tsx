import { createFileRoute, useNavigate, useParams } from '@tanstack/react-router';
import { HorsesScreen } from '../features/horses/HorsesScreen.tsx';

export const Route = createFileRoute('/horses')({
  component: HorsesPage,
});

/** [B10] /horses/<id> opens that horse's details over the list. */
function HorsesPage() {
  const navigate = useNavigate();
  const { horseId } = useParams({ strict: false });
  const open = (id: string | null) =>
    void (id ? navigate({ to: '/horses/$horseId', params: { horseId: id } }) : navigate({ to: '/horses', replace: true }));
  return <HorsesScreen link={{ id: horseId ?? null, open }} />;
}
