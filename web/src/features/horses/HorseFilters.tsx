import { memo, useId, useState } from 'react';
import type { LookupItem } from '../../../../shared/index.ts';
import { useIsDesk } from '../../ui/use-media-query.ts';
import { RANCH, type HorseFilters as Filters, type LookupLists, type SupplierOption } from './use-horse-rows.ts';

type Props = {
  filters: Filters;
  onChange: (filters: Filters) => void;
  lookups: LookupLists | undefined;
  suppliers: SupplierOption[] | undefined;
  /** The search shows the matches among the horses read so far: the whole list is still being read. */
  searching?: boolean;
};

/**
 * The search box and the five filters of [H1] and [H2], each with its 'All …' choice. The
 * seed's Filter button (behaviour not shown) shows or hides the five selects: shown at
 * first on desks, hidden on phones where they would push the list off the screen. It
 * counts the filters in use.
 */
export function HorseFilters({ filters, onChange, lookups, suppliers, searching = false }: Props) {
  const desk = useIsDesk();
  const [open, setOpen] = useState<boolean | null>(null);
  const shown = open ?? desk;
  const panelId = useId();
  const active = (['statusId', 'breedId', 'colorId', 'genderId', 'ownerId'] as const).filter((field) => filters[field] !== '').length;
  const set = (patch: Partial<Filters>) => onChange({ ...filters, ...patch });
  const select = (field: 'statusId' | 'breedId' | 'colorId' | 'genderId', label: string, all: string, items: LookupItem[] | undefined) => (
    <label className="select w-full">
      <span className="sr-only">{label}</span>
      <select aria-label={label} value={filters[field]} onChange={(event) => set({ [field]: event.target.value })}>
        <option value="">{all}</option>
        <Choices items={items} />
      </select>
    </label>
  );

  return (
    <div className="space-y-2">
      <div className="flex gap-2">
        <label className="input w-full max-w-md flex-1">
          <span className="sr-only">Search horses</span>
          <input
            type="search"
            placeholder="Search horses..."
            value={filters.search}
            onChange={(event) => set({ search: event.target.value })}
          />
        </label>
        <button type="button" className="btn btn-outline" aria-expanded={shown} aria-controls={panelId} onClick={() => setOpen(!shown)}>
          Filter
          {active > 0 && (
            <span className="badge badge-sm badge-primary">
              {active}
              <span className="sr-only"> in use</span>
            </span>
          )}
        </button>
      </div>
      {searching && (
        <p role="status" className="text-sm text-base-content/70">
          Searching all horses…
        </p>
      )}
      {/* Rendered only while shown: hidden on a phone, its options would be made at every start for nothing. */}
      <div id={panelId} hidden={!shown} className="grid grid-cols-1 gap-2 sm:grid-cols-2 lg:grid-cols-5">
        {shown && (
          <>
            {select('statusId', 'Filter by status', 'All Statuses', lookups?.statuses)}
            {select('breedId', 'Filter by breed', 'All Breeds', lookups?.breeds)}
            {select('colorId', 'Filter by color', 'All Colors', lookups?.colors)}
            {select('genderId', 'Filter by gender', 'All Genders', lookups?.genders)}
            <label className="select w-full">
              <span className="sr-only">Filter by supplier</span>
              <select aria-label="Filter by supplier" value={filters.ownerId} onChange={(event) => set({ ownerId: event.target.value })}>
                <option value="">All Suppliers</option>
                <option value={RANCH}>Ranch</option>
                <Choices items={suppliers} />
              </select>
            </label>
          </>
        )}
      </div>
    </div>
  );
}

/**
 * A select's choices, rendered again only when the list changes: the screen renders on every
 * key typed in the search and every page of horses read, and a ranch's suppliers' options
 * made and compared each time would be most of this component's time in a phone's start.
 */
const Choices = memo(function Choices({ items }: { items: { id: string; name: string }[] | undefined }) {
  return items?.map((item) => (
    <option key={item.id} value={item.id}>
      {item.name}
    </option>
  ));
});
