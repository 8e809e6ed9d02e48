import type { RanchFigures } from './dashboard.ts';

/**
 * [D5] [D7] An amount in the unit that fits it: '$950', '$41.7K', '$180K', '$1.2M', '$3.4B',
 * '$1.2T'; one decimal, rounded half up, dropped when it is 0. An amount that rounds up to
 * the next unit is shown in it ($999,950 is '$1M', not '$1000K').
 */
export function compactUsd(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  const dollars = Math.round(abs / 100);
  if (dollars < 1000) return `${sign}$${dollars}`;
  const units = [
    { size: 1e3, suffix: 'K' },
    { size: 1e6, suffix: 'M' },
    { size: 1e9, suffix: 'B' },
    { size: 1e12, suffix: 'T' },
  ];
  for (const [index, unit] of units.entries()) {
    // Tenths of the unit, from integer cents: 1.45M is 14.5 tenths exactly, rounded up.
    const tenths = Math.round(abs / (unit.size * 10));
    if (tenths < 10_000 || index === units.length - 1) {
      const whole = Math.floor(tenths / 10);
      const tenth = tenths % 10;
      return `${sign}$${whole}${tenth === 0 ? '' : `.${tenth}`}${unit.suffix}`;
    }
  }
  return `${sign}$${dollars}`;
}

/** [D2] 'N this month' with its sign: '+3 this month', '+0 this month'. */
export function addedCaption(horsesAdded: number): string {
  return `+${horsesAdded} this month`;
}

/**
 * [D2] The inventory value's change from the start of the month, as a percent with one
 * decimal ('+5.2% from last month', '-3.0% from last month', '+0.0% from last month'); when
 * the month started with no inventory value, the amount it grew by ('+$41.7K from last month').
 */
export function inventoryChangeCaption(nowCents: number, lastMonthCents: number): string {
  if (lastMonthCents === 0) return nowCents === 0 ? '+0.0% from last month' : `+${compactUsd(nowCents)} from last month`;
  // Tenths of a percent from integer cents, rounded half away from zero.
  const change = nowCents - lastMonthCents;
  const tenths = Math.round((Math.abs(change) * 1000) / lastMonthCents);
  const sign = change < 0 ? '-' : '+';
  return `${sign}${Math.floor(tenths / 10)}.${tenths % 10}% from last month`;
}

/** [D2] What open sales still owe: '$180K pending'. */
export function pendingCaption(pendingCents: number): string {
  return `${compactUsd(pendingCents)} pending`;
}

/** [D2] Buyers with something past due: '4 accounts', '1 account', '0 accounts'. */
export function accountsCaption(accounts: number): string {
  return `${accounts} ${accounts === 1 ? 'account' : 'accounts'}`;
}

/** [D2] The four cards' captions, in the seed's form, from the real figures. */
export function kpiCaptions(figures: RanchFigures) {
  return {
    totalHorses: addedCaption(figures.horsesAddedThisMonth),
    inventoryValue: inventoryChangeCaption(figures.inventoryValueCents, figures.inventoryValueLastMonthCents),
    activeSales: pendingCaption(figures.pendingCents),
    pastDue: accountsCaption(figures.accountsPastDue),
  };
}
