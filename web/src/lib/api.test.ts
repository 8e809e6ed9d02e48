import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, apiRequest, getJson, isUnauthorized } from './api.ts';

const fetchMock = vi.fn<typeof fetch>();
vi.stubGlobal('fetch', fetchMock);
afterEach(() => fetchMock.mockReset());

describe('[X3] [A7] api client', () => {
  it('[X1] sends JSON bodies with credentials and a JSON content type', async () => {
    fetchMock.mockResolvedValue(new Response(null, { status: 204 }));
    await apiRequest('POST', '/api/breeds', { name: 'Arabian', isActive: true });
    expect(fetchMock).toHaveBeenCalledWith('/api/breeds', {
      method: 'POST',
      credentials: 'include',
      headers: { 'Content-Type': 'application/json' },
      body: '{"name":"Arabian","isActive":true}',
    });
  });

  it('[X3] raises "status: body" for a non-OK answer, or the status text when the body is empty', async () => {
    fetchMock.mockResolvedValueOnce(new Response('{"message":"Invalid"}', { status: 400 }));
    await expect(apiRequest('POST', '/api/horses', {})).rejects.toThrow('400: {"message":"Invalid"}');
    fetchMock.mockResolvedValueOnce(new Response('', { status: 404, statusText: 'Not Found' }));
    await expect(getJson('/api/horses/x')).rejects.toThrow('404: Not Found');
  });

  it('[X3] [A7] treats a 401 as a logged-out session, or as null when the read asks for it', async () => {
    fetchMock.mockResolvedValueOnce(new Response('Unauthorized', { status: 401 }));
    const error = await getJson('/api/horses').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toBe('401: Unauthorized');
    expect(isUnauthorized(error)).toBe(true);

    fetchMock.mockResolvedValueOnce(new Response('Unauthorized', { status: 401 }));
    expect(await getJson('/api/auth/user', 'returnNull')).toBeNull();
  });

  it("keeps the server's error body (shared ErrorBody), so a form can show the refused fields", async () => {
    const body = { message: 'breedId: no such breed', issues: [{ path: 'breedId', message: 'Unknown id' }] };
    fetchMock.mockResolvedValueOnce(new Response(JSON.stringify(body), { status: 400 }));
    const error = await apiRequest('POST', '/api/horses', {}).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).body).toEqual(body);
    expect((error as ApiError).issues).toEqual(body.issues);

    fetchMock.mockResolvedValueOnce(new Response('<html>Bad Gateway</html>', { status: 502 }));
    const proxied = await apiRequest('GET', '/api/horses').catch((caught: unknown) => caught);
    expect((proxied as ApiError).body).toBeNull();
    expect((proxied as ApiError).issues).toEqual([]);
  });
});
