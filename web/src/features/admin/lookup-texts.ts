import { LOOKUP_SINGULAR, type LookupKind } from '../../../../shared/index.ts';

export const LOOKUP_TABS: { kind: LookupKind; tab: string }[] = [
  { kind: 'breeds', tab: 'Breeds' },
  { kind: 'colors', tab: 'Colors' },
  { kind: 'genders', tab: 'Genders' },
  { kind: 'statuses', tab: 'Statuses' },
];

/** Every text of one lookup tab ([L1]–[L6]). */
export function lookupTexts(kind: LookupKind) {
  const one = LOOKUP_SINGULAR[kind];
  const lower = one.toLowerCase();
  const tab = LOOKUP_TABS.find((t) => t.kind === kind)?.tab ?? one;
  return {
    cardTitle: `Horse ${tab}`,
    addButton: `Add ${one}`,
    addTitle: `Add New ${one}`,
    editTitle: `Edit ${one}`,
    viewTitle: one,
    placeholder: `Enter ${lower} name`,
    // [B6] The list's search label and count: '8 breeds', '1 status'.
    noun: tab.toLowerCase(),
    one: lower,
    empty: `No ${tab.toLowerCase()} found`,
    created: `${one} created successfully`,
    createFailed: `Failed to create ${lower}`,
    // Beyond the seed (editing and deactivation were console-only there).
    updated: `${one} updated successfully`,
    updateFailed: `Failed to update ${lower}`,
    deactivated: `${one} deactivated successfully`,
    activated: `${one} activated successfully`,
  };
}
