// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { RanchData } from '../../data/ranch-data.ts';
import { renderScreen, testUser, useTestData } from '../../../test/render-screen.tsx';
import { AdminScreen } from '../admin/AdminScreen.tsx';
import { CACHED_RANCH_KEY, forgetRanchDetails } from './ranch-details.ts';
import { OFFLINE_TEXT } from './RanchDetailsCard.tsx';

let data: RanchData;
useTestData((opened) => (data = opened));

const fetchMock = vi.fn<typeof fetch>();
const KEPT = {
  name: 'Willow Creek Ranch',
  address: '1200 County Road 7\nLaramie, WY 82070',
  phone: null,
  email: null,
  logoUrl: null,
  logoData: null,
};

beforeEach(() => {
  forgetRanchDetails();
  localStorage.setItem(CACHED_RANCH_KEY, JSON.stringify(KEPT));
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  fetchMock.mockReset();
  vi.unstubAllGlobals();
  forgetRanchDetails();
});

const field = (name: string) => screen.getByLabelText(new RegExp(`^${name}`)) as HTMLInputElement;
const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const puts = () => fetchMock.mock.calls.filter(([, init]) => init?.method === 'PUT');

async function card() {
  renderScreen(<AdminScreen />, { data, user: testUser('Admin') });
  return screen.findByRole('region', { name: 'Ranch details' });
}

describe('[L9] Ranch details form', () => {
  it('shows the kept details and saves what was typed, keeping the answer on the device', async () => {
    fetchMock.mockImplementation(async (_url, init) => json({ ...JSON.parse(String(init?.body)), logoUrl: null }));
    const region = await card();
    expect(field('Ranch Name').value).toBe('Willow Creek Ranch');
    expect((within(region).getByLabelText('Address') as HTMLTextAreaElement).value).toBe('1200 County Road 7\nLaramie, WY 82070');
    fireEvent.change(field('Phone'), { target: { value: '(307) 555-0142' } });
    fireEvent.change(field('Email'), { target: { value: 'office@willow.test' } });
    fireEvent.click(within(region).getByRole('button', { name: 'Save Ranch Details' }));
    expect(await screen.findByText('Ranch details saved')).toBeTruthy();
    expect(puts()).toHaveLength(1);
    const [url, init] = puts()[0]!;
    expect(url).toBe('/api/ranch');
    expect(JSON.parse(String(init?.body))).toEqual({
      name: 'Willow Creek Ranch',
      address: '1200 County Road 7\nLaramie, WY 82070',
      phone: '(307) 555-0142',
      email: 'office@willow.test',
      logoUrl: null,
    });
    await waitFor(() => expect(JSON.parse(localStorage.getItem(CACHED_RANCH_KEY) ?? '{}').phone).toBe('(307) 555-0142'));
  });

  it('refuses bad values beside their fields, sending nothing', async () => {
    const region = await card();
    fireEvent.change(field('Ranch Name'), { target: { value: '   ' } });
    fireEvent.change(field('Phone'), { target: { value: 'call the barn' } });
    fireEvent.click(within(region).getByRole('button', { name: 'Save Ranch Details' }));
    expect(await screen.findByText('Ranch name is required')).toBeTruthy();
    expect(screen.getByText('Invalid phone number')).toBeTruthy();
    expect(puts()).toHaveLength(0);
  });

  it("shows the server's refusal on its field", async () => {
    fetchMock.mockResolvedValue(
      json(
        {
          message: 'logoUrl: Logo must be a photo uploaded to this ranch',
          issues: [{ path: 'logoUrl', message: 'Logo must be a photo uploaded to this ranch' }],
        },
        400,
      ),
    );
    const region = await card();
    fireEvent.click(within(region).getByRole('button', { name: 'Save Ranch Details' }));
    expect(await screen.findByText('Logo must be a photo uploaded to this ranch')).toBeTruthy();
    expect(JSON.parse(localStorage.getItem(CACHED_RANCH_KEY) ?? '{}')).toEqual(KEPT);
  });

  it('offline, says editing needs a connection and cannot save', async () => {
    data.status.set({ online: false });
    const region = await card();
    expect(within(region).getByText(OFFLINE_TEXT)).toBeTruthy();
    expect((within(region).getByRole('button', { name: 'Save Ranch Details' }) as HTMLButtonElement).disabled).toBe(true);
    expect(field('Ranch Name').matches(':disabled')).toBe(true);
  });

  it.each(['Staff', 'Viewer'] as const)('[R4] is not shown to %s', async (role) => {
    renderScreen(<AdminScreen />, { data, user: testUser(role) });
    expect(await screen.findByRole('heading', { name: 'Administration' })).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Ranch details' })).toBeNull();
  });
});
