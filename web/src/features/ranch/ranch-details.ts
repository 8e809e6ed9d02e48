import { useSyncExternalStore } from 'react';
import { NO_RANCH_DETAILS, type RanchDetails } from '../../../../shared/ranch-details.ts';
import type { RanchDetailsFields } from '../../../../shared/schemas/ranch.ts';
import { apiRequest, getJson } from '../../lib/api.ts';

export const RANCH_DETAILS_PATH = '/api/ranch';

/**
 * [L9] The ranch's details as this device last read them, kept like the signed-in user
 * (user-cache.ts) so receipts printed offline still carry them. `logoData`: the logo's bytes
 * as a data: URL when small enough to keep here, so the logo prints offline too.
 */
export type KeptRanchDetails = RanchDetails & { logoData: string | null };

export const CACHED_RANCH_KEY = 'ranch.details';
/** A logo kept on the device as a data: URL is at most this big (larger ones print from the browser's cache). */
export const KEPT_LOGO_MAX_BYTES = 256 * 1024;

const NOTHING_KEPT: KeptRanchDetails = { ...NO_RANCH_DETAILS, logoData: null };
const FIELDS = ['name', 'address', 'phone', 'email', 'logoUrl', 'logoData'] as const;

let current: KeptRanchDetails | undefined;
const listeners = new Set<() => void>();

function isKept(value: unknown): value is KeptRanchDetails {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return FIELDS.every((field) => record[field] === null || typeof record[field] === 'string');
}

function readKept(): KeptRanchDetails {
  try {
    const raw = localStorage.getItem(CACHED_RANCH_KEY);
    const parsed: unknown = raw ? JSON.parse(raw) : null;
    return isKept(parsed) ? parsed : NOTHING_KEPT;
  } catch {
    return NOTHING_KEPT;
  }
}

function keep(next: KeptRanchDetails): void {
  current = next;
  try {
    localStorage.setItem(CACHED_RANCH_KEY, JSON.stringify(next));
  } catch {
    // Storage full or disabled: the details still show while the app is open.
  }
  listeners.forEach((listener) => listener());
}

const snapshot = (): KeptRanchDetails => {
  current ??= readKept();
  return current;
};

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** The kept details; re-renders when they are read again or saved. */
export function useRanchDetails(): KeptRanchDetails {
  return useSyncExternalStore(subscribe, snapshot);
}

/** Forgets the kept details (a device's local data cleared, or a test's start). */
export function forgetRanchDetails(): void {
  current = undefined;
  try {
    localStorage.removeItem(CACHED_RANCH_KEY);
  } catch {
    // Nothing kept when storage is unavailable.
  }
  listeners.forEach((listener) => listener());
}

async function logoDataOf(logoUrl: string): Promise<string | null> {
  try {
    const response = await fetch(logoUrl, { credentials: 'include' });
    if (!response.ok) return null;
    const blob = await response.blob();
    if (blob.size > KEPT_LOGO_MAX_BYTES) return null;
    return await new Promise<string | null>((resolve) => {
      const reader = new FileReader();
      reader.onload = () => resolve(typeof reader.result === 'string' ? reader.result : null);
      reader.onerror = () => resolve(null);
      reader.readAsDataURL(blob);
    });
  } catch {
    return null;
  }
}

async function keepDetails(details: RanchDetails): Promise<void> {
  const before = snapshot();
  const logoData =
    details.logoUrl === null
      ? null
      : details.logoUrl === before.logoUrl && before.logoData
        ? before.logoData
        : await logoDataOf(details.logoUrl);
  const { name, address, phone, email, logoUrl } = details;
  keep({ name, address, phone, email, logoUrl, logoData });
}

/**
 * Reads the details from the server and keeps them; offline (or any failure) the kept ones
 * stay as they are. Answers whether they were read.
 */
export async function refreshRanchDetails(): Promise<boolean> {
  try {
    const details = await getJson<RanchDetails>(RANCH_DETAILS_PATH, 'returnNull');
    if (details === null) return false;
    await keepDetails(details);
    return true;
  } catch {
    return false;
  }
}

/** `PUT /api/ranch` (Admin only, online only); the saved details are kept at once. Throws ApiError. */
export async function saveRanchDetails(fields: RanchDetailsFields): Promise<RanchDetails> {
  const saved = (await (await apiRequest('PUT', RANCH_DETAILS_PATH, fields)).json()) as RanchDetails;
  await keepDetails(saved);
  return saved;
}
