/** What the Horse Status Distribution calls horses with no status. */
export const NO_STATUS = 'No Status';

export type StatusCount = { name: string; count: number };

/**
 * The dashboard's Horse Status Distribution, the same on every device and over REST
 * (`GET /api/dashboard/metrics`): every status by name, a status no horse has included with
 * 0, then 'No Status' for the horses without one (or naming one that does not exist), when
 * there are any. `horsesByStatus`: how many horses name each status id (null: none).
 */
export function statusDistribution(statuses: readonly { id: string; name: string }[], horsesByStatus: ReadonlyMap<string | null, number>): StatusCount[] {
  const distribution = [...statuses]
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((status) => ({ name: status.name, count: horsesByStatus.get(status.id) ?? 0 }));
  const known = new Set(statuses.map((status) => status.id));
  let unnamed = 0;
  for (const [statusId, count] of horsesByStatus) if (statusId === null || !known.has(statusId)) unnamed += count;
  if (unnamed > 0) distribution.push({ name: NO_STATUS, count: unnamed });
  return distribution;
}
