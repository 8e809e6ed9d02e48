import { createFileRoute, useNavigate, useParams } from '@tanstack/react-router';
import { HorsesScreen } from '../features/horses/HorsesScreen.tsx';

export const Route = createFileRoute('/horses')({
  component: HorsesPage,
});

/** [B10] /horses/<id> opens that horse's details over the list; [K8] /horses/<id>/care/<entry> a care entry's over them. */
function HorsesPage() {
  const navigate = useNavigate();
  const { horseId, careId } = useParams({ strict: false });
  const open = (id: string | null) =>
    void (id ? navigate({ to: '/horses/$horseId', params: { horseId: id } }) : navigate({ to: '/horses', replace: true }));
  const openCare = (id: string | null) => {
    if (!horseId) return;
    void (id
      ? navigate({ to: '/horses/$horseId/care/$careId', params: { horseId, careId: id } })
      : navigate({ to: '/horses/$horseId', params: { horseId }, replace: true }));
  };
  return <HorsesScreen link={{ id: horseId ?? null, open }} careLink={{ id: careId ?? null, open: openCare }} />;
}
