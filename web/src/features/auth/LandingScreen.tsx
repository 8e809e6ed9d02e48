import type { ReactNode } from 'react';

export const LOGIN_PATH = '/api/login';

/** [A2]: the only screen a visitor who is not signed in sees; `notice` says why the session ended ([A13]). */
export function LandingScreen({ notice }: { notice?: ReactNode } = {}) {
  return (
    <main className="hero min-h-screen bg-base-200">
      <div className="hero-content text-center">
        <div className="max-w-md">
          <img src="/icon-192.png" alt="" width={96} height={96} className="mx-auto mb-6 rounded-2xl shadow" />
          <h1 className="text-5xl font-bold">Ranch</h1>
          <p className="mt-2 text-xl text-base-content/80">Horse Ranch Management System</p>
          <p className="py-6">
            Keep your horse inventory, suppliers, buyers, sales and payment plans in one place, in the office or out in the paddock, with or
            without a signal.
          </p>
          {notice}
          <button
            type="button"
            className="btn btn-primary btn-lg"
            onClick={() => {
              window.location.href = LOGIN_PATH;
            }}
          >
            Sign In to Continue
          </button>
        </div>
      </div>
    </main>
  );
}
