import type { Session, SessionUser } from '../auth/sessions.ts';

export type AppEnv = {
  Variables: {
    user: SessionUser | null;
    session: Session | null;
  };
};

/** Variables once `requireUser` has run. */
export type AuthedEnv = {
  Variables: {
    user: SessionUser;
    session: Session;
  };
};
