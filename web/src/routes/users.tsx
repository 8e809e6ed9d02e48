import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { UsersScreen } from '../features/users/UsersScreen.tsx';

export const Route = createFileRoute('/users')({
  component: UsersPage,
});

function UsersPage() {
  const navigate = useNavigate();
  return <UsersScreen goHome={() => void navigate({ to: '/' })} />;
}
