import type { LookupItem } from '../../../../shared/index.ts';
import { RANCH, type HorseFilters as Filters, type LookupLists, type SupplierOption } from './use-horse-rows.ts';

type Props = {
  filters: Filters;
  onChange: (filters: Filters) => void;
  lookups: LookupLists | undefined;
  suppliers: SupplierOption[] | undefined;
};

/** The search box and the five filters of SPEC §2, each with its 'All …' choice. */
export function HorseFilters({ filters, onChange, lookups, suppliers }: Props) {
  const set = (patch: Partial<Filters>) => onChange({ ...filters, ...patch });
  const select = (field: 'statusId' | 'breedId' | 'colorId' | 'genderId', label: string, all: string, items: LookupItem[] | undefined) => (
    <label className="select w-full">
      <span className="sr-only">{label}</span>
      <select aria-label={label} value={filters[field]} onChange={(event) => set({ [field]: event.target.value })}>
        <option value="">{all}</option>
        {items?.map((item) => (
          <option key={item.id} value={item.id}>
            {item.name}
          </option>
        ))}
      </select>
    </label>
  );

  return (
    <div className="grid grid-cols-1 gap-2 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-6">
      <label className="input w-full sm:col-span-2 lg:col-span-3 xl:col-span-1">
        <span className="sr-only">Search horses</span>
        <input type="search" placeholder="Search horses..." value={filters.search} onChange={(event) => set({ search: event.target.value })} />
      </label>
      {select('statusId', 'Filter by status', 'All Statuses', lookups?.statuses)}
      {select('breedId', 'Filter by breed', 'All Breeds', lookups?.breeds)}
      {select('colorId', 'Filter by color', 'All Colors', lookups?.colors)}
      {select('genderId', 'Filter by gender', 'All Genders', lookups?.genders)}
      <label className="select w-full">
        <span className="sr-only">Filter by supplier</span>
        <select aria-label="Filter by supplier" value={filters.ownerId} onChange={(event) => set({ ownerId: event.target.value })}>
          <option value="">All Suppliers</option>
          <option value={RANCH}>Ranch</option>
          {suppliers?.map((supplier) => (
            <option key={supplier.id} value={supplier.id}>
              {supplier.name}
            </option>
          ))}
        </select>
      </label>
    </div>
  );
}
