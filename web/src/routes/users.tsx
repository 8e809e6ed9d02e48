import { createFileRoute, useNavigate, useParams } from '@tanstack/react-router';
import { UsersScreen } from '../features/users/UsersScreen.tsx';

export const Route = createFileRoute('/users')({
  component: UsersPage,
});

/** [U20] /users/<id> opens that person's details over the list. */
function UsersPage() {
  const navigate = useNavigate();
  const { userId } = useParams({ strict: false });
  const open = (id: string | null) =>
    void (id ? navigate({ to: '/users/$userId', params: { userId: id } }) : navigate({ to: '/users', replace: true }));
  return <UsersScreen goHome={() => void navigate({ to: '/' })} link={{ id: userId ?? null, open }} />;
}
