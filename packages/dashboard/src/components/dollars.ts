/** A USD amount as the dashboard shows costs: cents at least, micro-dollar prices to four places; `—` for none. */
export const dollars = (value: number | null | undefined): string =>
  value === null || value === undefined ? '—' : `$${value.toLocaleString(undefined, { minimumFractionDigits: 2, maximumFractionDigits: 4 })}`;
