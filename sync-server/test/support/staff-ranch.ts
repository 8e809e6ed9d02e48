import { createdId, signIn, signInAs, type ApiClient } from './client.ts';
import type { TestDatabaseKind } from './databases.ts';
import { ADMIN, startTestServer, type TestServer, type TestServerOptions } from './server.ts';

export type StaffRanch = {
  server: TestServer;
  staff: ApiClient;
  /** One breed (Shire), color (Black) and gender (Gelding), made through REST: what a horse needs. */
  lookups: { breed: string; color: string; gender: string };
};

/** How the sync rule tests start: a server, a Staff member signed in, and the lookups a horse needs. */
export async function startStaffRanch(kind: TestDatabaseKind, options: TestServerOptions = {}): Promise<StaffRanch> {
  const server = await startTestServer(kind, options);
  const admin = await signIn(server.url, ADMIN.email, ADMIN.password);
  const staff = await signInAs(server.url, admin, 'Staff');
  const lookups = {
    breed: await createdId(staff, '/api/breeds', { name: 'Shire' }),
    color: await createdId(staff, '/api/colors', { name: 'Black' }),
    gender: await createdId(staff, '/api/genders', { name: 'Gelding' }),
  };
  return { server, staff, lookups };
}
