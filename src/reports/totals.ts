/**
 * Counts and amount sums of report records, per status and overall. Pure and deterministic: workflows keep
 * running totals with it and the report writer recomputes them from the records it writes.
 */
export interface CountAndAmount {
  count: number;
  amountCents: number;
}

export interface Totals extends CountAndAmount {
  byStatus: Record<string, CountAndAmount>;
}

export const emptyTotals = (): Totals => ({ count: 0, amountCents: 0, byStatus: {} });

export function addToTotals(totals: Totals, status: string, amountCents: number): Totals {
  const current = totals.byStatus[status] ?? { count: 0, amountCents: 0 };
  return {
    count: totals.count + 1,
    amountCents: totals.amountCents + amountCents,
    byStatus: {
      ...totals.byStatus,
      [status]: { count: current.count + 1, amountCents: current.amountCents + amountCents },
    },
  };
}

export function mergeTotals(a: Totals, b: Totals): Totals {
  const byStatus: Record<string, CountAndAmount> = { ...a.byStatus };
  for (const [status, part] of Object.entries(b.byStatus)) {
    const current = byStatus[status] ?? { count: 0, amountCents: 0 };
    byStatus[status] = {
      count: current.count + part.count,
      amountCents: current.amountCents + part.amountCents,
    };
  }
  return { count: a.count + b.count, amountCents: a.amountCents + b.amountCents, byStatus };
}

/** Cents as reais with two decimals and a dot ("1234.56"), by integer arithmetic so no rounding creeps in. */
export function centsToReais(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** Totals as they appear in report files: snake_case, every amount in cents and in reais, statuses sorted. */
export interface TotalsInFile {
  count: number;
  amount_cents: number;
  amount_reais: string;
  by_status: Record<string, { count: number; amount_cents: number; amount_reais: string }>;
}

export function totalsInFile(totals: Totals): TotalsInFile {
  const byStatus: TotalsInFile['by_status'] = {};
  for (const status of Object.keys(totals.byStatus).sort()) {
    const part = totals.byStatus[status] as CountAndAmount;
    byStatus[status] = {
      count: part.count,
      amount_cents: part.amountCents,
      amount_reais: centsToReais(part.amountCents),
    };
  }
  return {
    count: totals.count,
    amount_cents: totals.amountCents,
    amount_reais: centsToReais(totals.amountCents),
    by_status: byStatus,
  };
}
